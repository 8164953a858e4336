package core

import (
	"crypto/rand"
	"errors"
	"strings"

	"github.com/agui-go/agui"
)

// Emitter emits events on behalf of one owner: the run's own agent (the
// Emitter embedded in [RunContext]) or one subagent invocation (the Emitter
// embedded in [Subagent]). Every event goes through the run's verifier before
// it is queued, and a rejected event comes back as the error of the call
// that emitted it.
//
// Emitting is synchronous: it returns once the event is queued for the
// consumer, and blocks while the run's bounded queue is full. After the run
// is cancelled every method fails with a CANCELLED *Error, so an agent's
// next `return err` unwinds it.
//
// An Emitter is safe for concurrent use; handles opened from it may be used
// from different goroutines, as parallel tool calls need. Emitters come
// from a RunContext or a Subagent; a zero Emitter can only mint ids.
type Emitter struct {
	s *stream
	// subagent is the subagentRunId this Emitter tags its events with; ""
	// for the run's own agent.
	subagent string
	// parent is the Emitter this subagent was opened from; nil for the
	// run's own agent.
	parent *Emitter
}

// within reports whether e is scope or nested inside it.
func (e *Emitter) within(scope *Emitter) bool {
	for ; e != nil; e = e.parent {
		if e == scope {
			return true
		}
	}
	return false
}

// tag attributes ev to e's subagent unless ev already names an owner. This
// is the one place attribution is added.
func (e *Emitter) tag(ev agui.Event) agui.Event {
	if e.subagent == "" {
		return ev
	}
	if a, ok := ev.(agui.Attributed); ok && agui.SubagentOf(ev) == "" {
		a.SetSubagent(e.subagent)
	}
	return ev
}

func (e *Emitter) send(ev agui.Event) error { return e.s.send(e.tag(ev)) }

// open emits starts and registers what they open; ends are its terminators.
func (e *Emitter) open(inner *Emitter, starts, ends []agui.Event) (uint64, error) {
	for _, ev := range starts {
		e.tag(ev)
	}
	for _, ev := range ends {
		e.tag(ev)
	}
	return e.s.openEntry(e, inner, starts, ends)
}

// NewID mints an id unique within the run (and beyond: it is random), as
// prefix, a dash and a UUID, such as "msg-0b5d…". An empty prefix gives the
// bare UUID.
func (e *Emitter) NewID(prefix string) string { return newID(prefix) }

// newID formats a random (version 4, RFC 9562) UUID after prefix and a dash
// into one string. The 16 random bytes stay on the stack
// ([crypto/rand.Read] keeps its buffer from escaping), so an id is one
// allocation: the profile of a short run had the agent's goroutine grow
// its stack inside the UUID package's allocation of them.
func newID(prefix string) string {
	var u [16]byte
	_, _ = rand.Read(u[:])  // it never fails
	u[6] = u[6]&0x0f | 0x40 // version 4
	u[8] = u[8]&0x3f | 0x80 // the RFC's variant
	var b strings.Builder
	b.Grow(len(prefix) + 37)
	if prefix != "" {
		b.WriteString(prefix)
		b.WriteByte('-')
	}
	for i, c := range u {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			b.WriteByte('-')
		}
		b.WriteByte(hexDigits[c>>4])
		b.WriteByte(hexDigits[c&0x0f])
	}
	return b.String()
}

const hexDigits = "0123456789abcdef"

// Emit emits ev as it is, after the verifier has accepted it; an event
// without an owner is attributed to this Emitter's subagent. A rejected
// event returns a PROTOCOL_VIOLATION *Error wrapping the
// *VerificationError. Emit does not track what ev opens: something opened
// by a raw Emit must be closed by a raw Emit too.
//
// Emit takes ownership of ev: it may set ev's subagentRunId, and the
// consumer reads ev after Emit returns, so the caller must neither modify
// ev (nor values it points to, such as a CUSTOM value's map) nor emit it
// again. Build a new event for each emit.
//
// The run's lifecycle events (RUN_STARTED, RUN_FINISHED, RUN_ERROR) belong
// to the runner: Emit refuses them with a PROTOCOL error. End a run by
// returning an Outcome or an error instead.
func (e *Emitter) Emit(ev agui.Event) error {
	if ev == nil {
		return agui.NewError(agui.CodeProtocol, "core: Emit of a nil event")
	}
	switch ev.Type() {
	case agui.TypeRunStarted, agui.TypeRunFinished, agui.TypeRunError:
		return agui.NewError(agui.CodeProtocol, "core: "+string(ev.Type())+" is emitted by the runner; return an Outcome or an error instead")
	}
	return e.send(ev)
}

// Coalesce holds back the run's consumer (the HTTP handler's writer) from
// the events emitted from now until release is called, through any
// Emitter of the run, so that events emitted in a row leave in one write
// and one flush rather than one each: the loop holds while its model's
// tokens arrive faster than it emits them (see loop's package doc). The
// events are queued and verified as ever; a hold only defers the wake-up,
// and not past a full queue ([WithQueueSize]) or the run's end. Holds
// nest; the last release wakes the consumer when events wait. Release
// promptly: the client sees nothing of what is held. release may be
// called more than once, from any goroutine.
func (e *Emitter) Coalesce() (release func()) { return e.s.hold() }

// Say emits text as one whole assistant message: TEXT_MESSAGE_START, one
// TEXT_MESSAGE_CONTENT (none when text is empty) and TEXT_MESSAGE_END.
func (e *Emitter) Say(text string) error {
	m, err := e.Message()
	if err != nil {
		return err
	}
	if text != "" {
		if err := m.Delta(text); err != nil {
			return err
		}
	}
	return m.End()
}

// Message opens an assistant message (TEXT_MESSAGE_START with a fresh id
// and role assistant). Stream it with Delta and close it with End; defer
// End to close it on every path.
func (e *Emitter) Message() (*MessageHandle, error) {
	id := e.NewID("msg")
	key, err := e.open(nil,
		[]agui.Event{&agui.TextMessageStart{MessageID: id, Role: agui.RoleAssistant}},
		[]agui.Event{&agui.TextMessageEnd{MessageID: id}})
	if err != nil {
		return nil, err
	}
	return &MessageHandle{e: e, id: id, key: key}, nil
}

// Step opens a step named name (STEP_STARTED); defer its End. Steps are
// tracked per owner, so a subagent and its parent may both have a step of
// the same name open.
func (e *Emitter) Step(name string) (*StepHandle, error) {
	key, err := e.open(nil,
		[]agui.Event{&agui.StepStarted{StepName: name}},
		[]agui.Event{&agui.StepFinished{StepName: name}})
	if err != nil {
		return nil, err
	}
	return &StepHandle{e: e, name: name, key: key}, nil
}

// Think emits text as one whole reasoning block: REASONING_START,
// REASONING_MESSAGE_START (role reasoning), one REASONING_MESSAGE_CONTENT
// (none when text is empty), REASONING_MESSAGE_END and REASONING_END.
func (e *Emitter) Think(text string) error {
	r, err := e.Reasoning()
	if err != nil {
		return err
	}
	if text != "" {
		if err := r.Delta(text); err != nil {
			return err
		}
	}
	return r.End()
}

// Reasoning opens a reasoning block: a REASONING_START span and its
// REASONING_MESSAGE_START, sharing one fresh id. End closes both.
func (e *Emitter) Reasoning() (*ReasoningHandle, error) {
	id := e.NewID("reasoning")
	key, err := e.open(nil,
		[]agui.Event{&agui.ReasoningStart{MessageID: id}, &agui.ReasoningMessageStart{MessageID: id}},
		[]agui.Event{&agui.ReasoningMessageEnd{MessageID: id}, &agui.ReasoningEnd{MessageID: id}})
	if err != nil && key == 0 {
		return nil, err
	}
	h := &ReasoningHandle{e: e, id: id, key: key}
	if err != nil {
		// Half open: close what went out so nothing dangles.
		return nil, errors.Join(err, h.End())
	}
	return h, nil
}

// ToolCall opens a call of the tool named name (TOOL_CALL_START). The id is
// fresh unless [WithToolCallID] gives one. Stream the JSON arguments with
// Args, then End, then Result for a tool the agent runs itself; a tool the
// client runs is ended and named in Success's pending ids instead.
func (e *Emitter) ToolCall(name string, opts ...ToolCallOption) (*ToolCallHandle, error) {
	var o toolCallOptions
	for _, opt := range opts {
		if opt != nil {
			opt.applyToolCall(&o)
		}
	}
	id := o.id
	if id == "" {
		id = e.NewID("call")
	}
	key, err := e.open(nil,
		[]agui.Event{&agui.ToolCallStart{ToolCallID: id, ToolCallName: name, ParentMessageID: o.parentMessageID}},
		[]agui.Event{&agui.ToolCallEnd{ToolCallID: id}})
	if err != nil {
		return nil, err
	}
	return &ToolCallHandle{e: e, id: id, name: name, key: key}, nil
}

// Subagent opens an invocation of the subagent named name
// (SUBAGENT_STARTED with a fresh subagentRunId; parentSubagentRunId names
// this Emitter's invocation when there is one). Everything emitted through
// the returned Subagent is attributed to the invocation; close it with
// Finish, Suspend or Fail.
func (e *Emitter) Subagent(name string, opts ...SubagentOption) (*Subagent, error) {
	var o subagentOptions
	for _, opt := range opts {
		if opt != nil {
			opt.applySubagent(&o)
		}
	}
	id := e.NewID("sub")
	inner := &Emitter{s: e.s, subagent: id, parent: e}
	key, err := e.open(inner,
		[]agui.Event{&agui.SubagentStarted{
			SubagentRunID:       id,
			Name:                name,
			Description:         o.description,
			ParentSubagentRunID: e.subagent,
			ParentToolCallID:    o.parentToolCallID,
			ParentMessageID:     o.parentMessageID,
		}},
		[]agui.Event{&agui.SubagentFinished{SubagentRunID: id}})
	if err != nil {
		return nil, err
	}
	return &Subagent{Emitter: inner, key: key}, nil
}
