package agui

// Event is one AG-UI event. Every event type of the protocol is a pointer to
// one of the structs in this package ([*TextMessageContent], [*RunStarted], …);
// the set is closed, so a type switch over them is exhaustive.
//
// An Event value is not safe for concurrent mutation. The runner hands each
// event to one consumer at a time; a transformer that rewrites an event owns
// it from then on.
type Event interface {
	// Type is the event's wire type.
	Type() EventType
	// AppendJSON appends the event's compact JSON encoding to dst. Optional
	// fields without a value are omitted; it fails only when an opaque JSON
	// value (state, raw payloads, results) cannot be marshaled.
	AppendJSON(dst []byte) ([]byte, error)
	// base gives the runner and codecs access to the shared fields and seals
	// the interface: only this package's event types implement Event.
	base() *Base
}

// Base holds the fields every event may carry.
type Base struct {
	// Timestamp is milliseconds since the Unix epoch; 0 means absent.
	Timestamp int64
	// RawEvent is the upstream event this one was translated from, if any.
	// nil means absent (a JSON null is never written for it).
	RawEvent any
	// Metadata is producer-defined; nil means absent. The key "ag-ui" is
	// reserved by the protocol.
	Metadata map[string]any
}

func (b *Base) base() *Base { return b }

// Attribution is embedded by every event that may be attributed to a
// subagent invocation: everything except RUN_STARTED, RUN_FINISHED,
// RUN_ERROR and MESSAGES_SNAPSHOT. An empty SubagentRunID means the event
// belongs to the run's own agent, and the field is omitted on the wire.
type Attribution struct {
	SubagentRunID string
}

// SetSubagent attributes the event to a subagent run id ("" for the parent).
func (a *Attribution) SetSubagent(id string) { a.SubagentRunID = id }

func (a *Attribution) attribution() *Attribution { return a }

// Attributed is implemented by the events that carry a subagentRunId. Read
// the attribution of any event with [SubagentOf]; set it with SetSubagent.
type Attributed interface {
	Event
	SetSubagent(id string)
	attribution() *Attribution
}

// SubagentOf returns the subagent run id ev is attributed to, or "" for the
// run's own agent and for events that cannot be attributed. It is the one
// way to read an event's attribution.
func SubagentOf(ev Event) string {
	if a, ok := ev.(Attributed); ok {
		return a.attribution().SubagentRunID
	}
	return ""
}

// BaseOf returns the shared fields of ev, which may be modified in place.
func BaseOf(ev Event) *Base { return ev.base() }
