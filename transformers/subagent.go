package transformers

import (
	"fmt"
	"slices"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// Visibility is how much of its subagents' work a run shows the client.
type Visibility uint8

const (
	// VisibilityEmitted shows the stream as emitted: subagent lifecycle
	// events and attributed events alike. It is the default.
	VisibilityEmitted Visibility = iota
	// VisibilityInline drops the SUBAGENT_STARTED, _FINISHED and _ERROR
	// lifecycle events and keeps everything else, subagentRunId tags
	// included (clients older than 1.0 fail on the lifecycle events but
	// ignore the tags). A subagent's error message is lost with its
	// SUBAGENT_ERROR.
	VisibilityInline
	// VisibilityHidden keeps only the parent agent's own events: it drops
	// every SUBAGENT_* event and every event of a subagent, whether tagged
	// or an untagged continuation of something a subagent opened, and the
	// subagents' messages in MESSAGES_SNAPSHOT. Run events always pass.
	// State is run-scoped, so STATE_SNAPSHOT and STATE_DELTA pass whoever
	// emitted them, with their tag removed: dropping a subagent's update
	// would leave the client's state behind the server's and break later
	// deltas. RUN_FINISHED keeps its interrupts, without their subagent
	// tags and without a toolCallId naming a subagent's call, and loses the
	// subagents' calls from pendingToolCallIds.
	VisibilityHidden
)

// String returns the mode's name: emitted, inline or hidden.
func (v Visibility) String() string {
	switch v {
	case VisibilityEmitted:
		return "emitted"
	case VisibilityInline:
		return "inline"
	case VisibilityHidden:
		return "hidden"
	default:
		return fmt.Sprintf("Visibility(%d)", uint8(v))
	}
}

// SubagentVisibility returns a transformer that shows the client the
// stream's subagents as mode says. A value other than the three constants
// behaves as [VisibilityHidden], the mode that reveals least.
//
// [VisibilityEmitted] and [VisibilityInline] keep no state and share one
// transformer between runs; VisibilityHidden gives each run its own, which
// follows who owns each message, tool call, reasoning block and activity.
func SubagentVisibility(mode Visibility) core.TransformerFactory {
	switch mode {
	case VisibilityEmitted:
		return core.Stateless(core.TransformerFunc(func(ev agui.Event, emit func(agui.Event) error) error {
			return emit(ev)
		}))
	case VisibilityInline:
		return core.Stateless(core.TransformerFunc(func(ev agui.Event, emit func(agui.Event) error) error {
			if isSubagentLifecycle(ev) {
				return nil
			}
			return emit(ev)
		}))
	default:
		return func(in *agui.RunAgentInput) core.Transformer {
			h := &subagentHider{
				messages:   map[string]string{},
				calls:      map[string]string{},
				spans:      map[string]string{},
				reasoning:  map[string]string{},
				activities: map[string]string{},
			}
			if in != nil {
				h.seed(in.Messages)
			}
			return h
		}
	}
}

func isSubagentLifecycle(ev agui.Event) bool {
	switch ev.Type() {
	case agui.TypeSubagentStarted, agui.TypeSubagentFinished, agui.TypeSubagentError:
		return true
	}
	return false
}

// subagentHider is VisibilityHidden's per-run state: the owner ("" for the
// parent, else a subagent run id) of every entity opened so far, as the
// client's verifier tracks them. Like every Transformer it is used by one
// goroutine at a time.
type subagentHider struct {
	messages   map[string]string
	calls      map[string]string
	spans      map[string]string
	reasoning  map[string]string
	activities map[string]string
	lanes      chunkLanes
}

func (h *subagentHider) Transform(ev agui.Event, emit func(agui.Event) error) error {
	chunkID, lane := h.lanes.observe(ev)
	switch e := ev.(type) {
	case *agui.SubagentStarted, *agui.SubagentFinished, *agui.SubagentError:
		return nil
	case *agui.RunStarted, *agui.RunError:
	case *agui.RunFinished:
		ev = h.runFinished(e)
	case *agui.MessagesSnapshot:
		ev = h.snapshot(e)
	case *agui.StateSnapshot:
		if e.SubagentRunID != "" {
			cp := *e
			cp.SubagentRunID = ""
			ev = &cp
		}
	case *agui.StateDelta:
		if e.SubagentRunID != "" {
			cp := *e
			cp.SubagentRunID = ""
			ev = &cp
		}
	default:
		if h.owner(ev, chunkID, lane) != "" {
			return nil
		}
	}
	return emit(ev)
}

func (*subagentHider) Finish(func(agui.Event) error) error { return nil }

// owner records what ev opens and returns whom ev belongs to: its tag, or
// for an untagged continuation the owner of what it continues.
func (h *subagentHider) owner(ev agui.Event, chunkID, lane string) string {
	tag := agui.SubagentOf(ev)
	switch e := ev.(type) {
	case *agui.TextMessageStart:
		return open(h.messages, e.MessageID, tag)
	case *agui.TextMessageContent:
		return continued(h.messages, e.MessageID, tag)
	case *agui.TextMessageEnd:
		return continued(h.messages, e.MessageID, tag)
	case *agui.TextMessageChunk:
		return chunkOwner(h.messages, chunkID, lane, tag)
	case *agui.ToolCallStart:
		if tag == "" {
			// A call belongs to the message that carries it.
			tag = h.messages[e.ParentMessageID]
		}
		return open(h.calls, e.ToolCallID, tag)
	case *agui.ToolCallArgs:
		return continued(h.calls, e.ToolCallID, tag)
	case *agui.ToolCallEnd:
		return continued(h.calls, e.ToolCallID, tag)
	case *agui.ToolCallChunk:
		return chunkOwner(h.calls, chunkID, lane, tag)
	case *agui.ToolCallResult:
		return open(h.messages, e.MessageID, continued(h.calls, e.ToolCallID, tag))
	case *agui.ReasoningStart:
		return open(h.spans, e.MessageID, tag)
	case *agui.ReasoningEnd:
		return continued(h.spans, e.MessageID, tag)
	case *agui.ReasoningMessageStart:
		return open(h.reasoning, e.MessageID, tag)
	case *agui.ReasoningMessageContent:
		return continued(h.reasoning, e.MessageID, tag)
	case *agui.ReasoningMessageEnd:
		return continued(h.reasoning, e.MessageID, tag)
	case *agui.ReasoningMessageChunk:
		return chunkOwner(h.reasoning, chunkID, lane, tag)
	case *agui.ReasoningEncryptedValue:
		if tag != "" {
			return tag
		}
		if e.Subtype == agui.EncryptedToolCall {
			return h.calls[e.EntityID]
		}
		if o := h.messages[e.EntityID]; o != "" {
			return o
		}
		return h.reasoning[e.EntityID]
	case *agui.ActivitySnapshot:
		if _, ok := h.activities[e.MessageID]; ok && e.Replace != nil && !*e.Replace {
			// An update in place keeps the activity's owner.
			return continued(h.activities, e.MessageID, tag)
		}
		return open(h.activities, e.MessageID, tag)
	case *agui.ActivityDelta:
		return continued(h.activities, e.MessageID, tag)
	default:
		// STEP_*, CUSTOM, RAW: provenance is the tag.
		return tag
	}
}

// open records owner as the owner of id and returns it.
func open(owners map[string]string, id, owner string) string {
	owners[id] = owner
	return owner
}

// continued returns the owner of an event continuing id: its tag if it has
// one, else whoever opened id.
func continued(owners map[string]string, id, tag string) string {
	if tag != "" {
		return tag
	}
	return owners[id]
}

// chunkOwner returns the owner of a chunk of entity id in lane, recording
// the lane as the owner when the chunk opens the entity.
func chunkOwner(owners map[string]string, id, lane, tag string) string {
	if tag != "" {
		if _, ok := owners[id]; !ok && id != "" {
			owners[id] = tag
		}
		return tag
	}
	if o, ok := owners[id]; ok {
		return o
	}
	if id != "" {
		owners[id] = lane
	}
	return lane
}

// seed records the owners of messages the client already holds.
func (h *subagentHider) seed(msgs []agui.Message) {
	for _, m := range msgs {
		switch x := m.(type) {
		case *agui.ReasoningMessage:
			h.reasoning[x.ID] = x.SubagentRunID
		case *agui.ActivityMessage:
			h.activities[x.ID] = x.SubagentRunID
		case *agui.AssistantMessage:
			h.messages[x.ID] = x.SubagentRunID
			// A call inherits its message's attribution.
			for _, tc := range x.ToolCalls {
				h.calls[tc.ID] = x.SubagentRunID
			}
		default:
			h.messages[m.MessageID()] = m.Subagent()
		}
	}
}

// snapshot drops the subagents' messages, copying the event if it changes.
func (h *subagentHider) snapshot(e *agui.MessagesSnapshot) agui.Event {
	h.seed(e.Messages)
	isSub := func(m agui.Message) bool { return m.Subagent() != "" }
	if !slices.ContainsFunc(e.Messages, isSub) {
		return e
	}
	cp := *e
	cp.Messages = slices.DeleteFunc(slices.Clone(e.Messages), isSub)
	return &cp
}

// runFinished removes subagents from the outcome, copying what it changes.
func (h *subagentHider) runFinished(e *agui.RunFinished) agui.Event {
	if e.Outcome == nil {
		return e
	}
	isSub := func(id string) bool { return h.calls[id] != "" }
	o := *e.Outcome
	changed := false
	if slices.ContainsFunc(o.PendingToolCallIDs, isSub) {
		o.PendingToolCallIDs = slices.DeleteFunc(slices.Clone(o.PendingToolCallIDs), isSub)
		changed = true
	}
	if slices.ContainsFunc(o.Interrupts, func(i agui.Interrupt) bool { return i.SubagentRunID != "" || isSub(i.ToolCallID) }) {
		o.Interrupts = slices.Clone(o.Interrupts)
		for i := range o.Interrupts {
			o.Interrupts[i].SubagentRunID = ""
			if isSub(o.Interrupts[i].ToolCallID) {
				o.Interrupts[i].ToolCallID = ""
			}
		}
		changed = true
	}
	if !changed {
		return e
	}
	cp := *e
	cp.Outcome = &o
	return &cp
}
