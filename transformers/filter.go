package transformers

import (
	"slices"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// FilterToolCalls returns a transformer that hides from the client every
// tool call whose tool name keep rejects. It hides calls; it does not stop
// them running: the agent still makes the call and gets its result, and
// only the client's view of the run loses it.
//
// Every event of a hidden call is dropped: TOOL_CALL_START, _ARGS, _END and
// _RESULT, the TOOL_CALL_CHUNKs of the call (traced by id, or by chunk lane
// when a chunk has none, once its first chunk has named the tool), and a
// REASONING_ENCRYPTED_VALUE naming the call or its result message. The
// call's id never reaches the client later either: it is removed from
// RUN_FINISHED's pendingToolCallIds, from an interrupt's toolCallId and a
// SUBAGENT_STARTED's parentToolCallId (the interrupt and the subagent stay),
// and from MESSAGES_SNAPSHOT, which loses the call, its tool message, and an
// assistant message left with neither text nor calls. Calls in a snapshot
// are judged by their function name, so calls of earlier runs are hidden
// too. CUSTOM and RAW payloads are opaque and pass as they are.
//
// keep is called with a tool name and must be safe for concurrent use; nil
// keeps every call. Each run gets its own filter state.
func FilterToolCalls(keep func(name string) bool) core.TransformerFactory {
	if keep == nil {
		keep = func(string) bool { return true }
	}
	return func(*agui.RunAgentInput) core.Transformer {
		return &toolFilter{keep: keep, blocked: map[string]bool{}, blockedMessages: map[string]bool{}}
	}
}

// AllowToolCalls returns a [FilterToolCalls] that shows only the calls of the
// named tools. With no names, it hides every tool call.
func AllowToolCalls(names ...string) core.TransformerFactory {
	set := nameSet(names)
	return FilterToolCalls(func(name string) bool { return set[name] })
}

// DenyToolCalls returns a [FilterToolCalls] that hides the calls of the named
// tools and shows every other call.
func DenyToolCalls(names ...string) core.TransformerFactory {
	set := nameSet(names)
	return FilterToolCalls(func(name string) bool { return !set[name] })
}

// nameSet returns names as a set, which is only read from then on and so
// is safe to share between runs.
func nameSet(names []string) map[string]bool {
	set := make(map[string]bool, len(names))
	for _, n := range names {
		set[n] = true
	}
	return set
}

// toolFilter is FilterToolCalls' per-run state. Like every Transformer it
// is used by one goroutine at a time.
type toolFilter struct {
	keep func(string) bool
	// blocked holds the ids of hidden tool calls.
	blocked map[string]bool
	// blockedMessages holds the ids of hidden calls' result messages.
	blockedMessages map[string]bool
	lanes           chunkLanes
}

func (f *toolFilter) Transform(ev agui.Event, emit func(agui.Event) error) error {
	chunkID, _ := f.lanes.observe(ev)
	switch e := ev.(type) {
	case *agui.ToolCallStart:
		f.judge(e.ToolCallID, e.ToolCallName)
		if f.blocked[e.ToolCallID] {
			return nil
		}
	case *agui.ToolCallChunk:
		if e.ToolCallName != "" && chunkID != "" {
			f.judge(chunkID, e.ToolCallName)
		}
		if f.blocked[chunkID] {
			return nil
		}
	case *agui.ToolCallArgs:
		if f.blocked[e.ToolCallID] {
			return nil
		}
	case *agui.ToolCallEnd:
		if f.blocked[e.ToolCallID] {
			return nil
		}
	case *agui.ToolCallResult:
		if f.blocked[e.ToolCallID] {
			f.blockedMessages[e.MessageID] = true
			return nil
		}
	case *agui.ReasoningEncryptedValue:
		if (e.Subtype == agui.EncryptedToolCall && f.blocked[e.EntityID]) ||
			(e.Subtype == agui.EncryptedMessage && f.blockedMessages[e.EntityID]) {
			return nil
		}
	case *agui.SubagentStarted:
		if f.blocked[e.ParentToolCallID] {
			cp := *e
			cp.ParentToolCallID = ""
			ev = &cp
		}
	case *agui.RunFinished:
		ev = f.runFinished(e)
	case *agui.MessagesSnapshot:
		ev = f.snapshot(e)
	}
	return emit(ev)
}

func (*toolFilter) Finish(func(agui.Event) error) error { return nil }

// judge decides whether the call id of tool name is hidden.
func (f *toolFilter) judge(id, name string) {
	if f.keep(name) {
		delete(f.blocked, id)
	} else {
		f.blocked[id] = true
	}
}

// runFinished removes hidden call ids from the outcome. It copies what it
// changes: the outcome may be the agent's own value.
func (f *toolFilter) runFinished(e *agui.RunFinished) agui.Event {
	if e.Outcome == nil {
		return e
	}
	o := *e.Outcome
	changed := false
	if slices.ContainsFunc(o.PendingToolCallIDs, f.isBlocked) {
		o.PendingToolCallIDs = slices.DeleteFunc(slices.Clone(o.PendingToolCallIDs), f.isBlocked)
		changed = true
	}
	if slices.ContainsFunc(o.Interrupts, func(i agui.Interrupt) bool { return f.blocked[i.ToolCallID] }) {
		o.Interrupts = slices.Clone(o.Interrupts)
		for i := range o.Interrupts {
			if f.blocked[o.Interrupts[i].ToolCallID] {
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

func (f *toolFilter) isBlocked(id string) bool { return f.blocked[id] }

// snapshot removes hidden calls and their tool messages from a messages
// snapshot, copying what it changes.
func (f *toolFilter) snapshot(e *agui.MessagesSnapshot) agui.Event {
	// Tool messages may come before their call in the list, so judge every
	// call first.
	for _, m := range e.Messages {
		if a, ok := m.(*agui.AssistantMessage); ok {
			for _, tc := range a.ToolCalls {
				f.judge(tc.ID, tc.Function.Name)
			}
		}
	}
	out := make([]agui.Message, 0, len(e.Messages))
	changed := false
	for _, m := range e.Messages {
		switch x := m.(type) {
		case *agui.AssistantMessage:
			if !slices.ContainsFunc(x.ToolCalls, f.isBlockedCall) {
				break
			}
			changed = true
			kept := slices.DeleteFunc(slices.Clone(x.ToolCalls), f.isBlockedCall)
			if len(kept) == 0 && x.Content == "" {
				// The message only carried hidden calls.
				continue
			}
			cp := *x
			cp.ToolCalls = kept
			if len(kept) == 0 {
				cp.ToolCalls = nil
			}
			m = &cp
		case *agui.ToolMessage:
			if f.blocked[x.ToolCallID] || f.blockedMessages[x.ID] {
				changed = true
				continue
			}
		}
		out = append(out, m)
	}
	if !changed {
		return e
	}
	cp := *e
	cp.Messages = out
	return &cp
}

func (f *toolFilter) isBlockedCall(tc agui.ToolCall) bool { return f.blocked[tc.ID] }
