package eino

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/schema"
)

// ReasonInterrupt is the reason of the AG-UI interrupts an eino interrupt
// (adk.Interrupt, tool.Interrupt, compose.Interrupt) becomes.
const ReasonInterrupt = "eino_interrupt"

// transferTool is the name of the tool a ChatModelAgent calls to transfer
// to another agent.
const transferTool = "transfer_to_agent"

// translator turns one run's AgentEvents into AG-UI events. It is used by
// the run's goroutine only.
type translator struct {
	rc      *core.RunContext[State]
	session *sessionBox
	// subs are the open subagent invocations, outermost first, with the
	// agent names they stand for.
	subs  []*core.Subagent
	names []string
	// calls are the tool calls streamed and awaiting their result, by id.
	calls map[string]*core.ToolCallHandle
	// earlier are the calls of the input's messages.
	earlier map[string]earlierCall
	// transferCall is the id of the last transfer_to_agent call, the
	// parent of the subagent it opens.
	transferCall string
	published    []byte // the state last published, as JSON
	interrupts   []agui.Interrupt
	unresumable  bool  // an interrupt eino saves no checkpoint for
	failed       error // the first error eino reported
	stopped      error // the first emit error: the run is over, drain
}

// consume reads every event (so that eino's goroutines end, whatever
// happens to the run) and returns the run's outcome.
func (t *translator) consume(events *adk.AsyncIterator[*adk.AgentEvent], canPause bool) (agui.Outcome, error) {
	for {
		ev, ok := events.Next()
		if !ok {
			break
		}
		if t.stopped != nil {
			closeStreams(ev)
			continue
		}
		t.check(t.event(ev))
		t.check(t.publishState())
	}
	switch {
	case t.stopped != nil:
		return agui.Outcome{}, t.stopped
	case t.failed != nil:
		err := runError(t.failed)
		for i := len(t.subs) - 1; i >= 0; i-- {
			t.subs[i].Fail(err)
		}
		return agui.Outcome{}, err
	case t.unresumable:
		return agui.Outcome{}, checkpointError("the agent interrupted without adk.Interrupt, so there is no checkpoint to resume from", nil)
	case len(t.interrupts) > 0 && !canPause:
		return agui.Outcome{}, checkpointError("the agent interrupted but keeps no checkpoints to resume from", nil)
	case len(t.interrupts) > 0:
		ids := make([]string, len(t.interrupts))
		for i, in := range t.interrupts {
			ids[i] = in.ID
		}
		for i := len(t.subs) - 1; i >= 0; i-- {
			if err := t.subs[i].Suspend(ids...); err != nil {
				return agui.Outcome{}, err
			}
		}
		return agui.Interrupted(t.interrupts...), nil
	}
	for i := len(t.subs) - 1; i >= 0; i-- {
		if err := t.subs[i].Finish(nil); err != nil {
			return agui.Outcome{}, err
		}
	}
	return agui.Success(), nil
}

// check notes the first emit error; after it nothing more is emitted.
func (t *translator) check(err error) {
	if err != nil && t.stopped == nil {
		t.stopped = err
	}
}

// emitter is where the current agent's events go: the innermost open
// subagent, or the run.
func (t *translator) emitter() *core.Emitter {
	if n := len(t.subs); n > 0 {
		return t.subs[n-1].Emitter
	}
	return t.rc.Emitter
}

// event translates one AgentEvent.
func (t *translator) event(ev *adk.AgentEvent) error {
	if err := t.follow(ev.RunPath); err != nil {
		closeStreams(ev)
		return err
	}
	if ev.Err != nil && t.failed == nil {
		t.failed = ev.Err
	}
	if ev.Output != nil && ev.Output.MessageOutput != nil {
		mv := ev.Output.MessageOutput
		var err error
		if mv.Role == schema.Tool {
			err = t.toolResult(mv)
		} else {
			err = t.assistant(mv)
		}
		if err != nil {
			return err
		}
	}
	if ev.Action != nil && ev.Action.Interrupted != nil {
		t.interrupted(ev.Action.Interrupted)
	}
	return nil
}

// follow opens and closes subagent invocations so that they match the
// event's run path: the root agent is the run, each agent transferred to
// below it a subagent. Consecutive repeats of a name are one agent (the
// runner's wrapper around an agent that wraps itself); an event without a
// path belongs where the last one did.
func (t *translator) follow(path []adk.RunStep) error {
	if len(path) == 0 {
		return nil
	}
	var names []string
	for _, s := range path {
		n := s.String()
		if len(names) == 0 || names[len(names)-1] != n {
			names = append(names, n)
		}
	}
	names = names[1:]
	keep := 0
	for keep < len(names) && keep < len(t.names) && names[keep] == t.names[keep] {
		keep++
	}
	for i := len(t.subs) - 1; i >= keep; i-- {
		if err := t.subs[i].Finish(nil); err != nil {
			return err
		}
	}
	t.subs, t.names = t.subs[:keep], t.names[:keep]
	for _, n := range names[keep:] {
		var opts []core.SubagentOption
		if id := t.parentCall(n); id != "" {
			opts = append(opts, core.WithParentToolCall(id))
		}
		s, err := t.emitter().Subagent(n, opts...)
		if err != nil {
			return err
		}
		t.subs, t.names = append(t.subs, s), append(t.names, n)
	}
	return nil
}

// parentCall is the tool call that started agent name: the last
// transfer_to_agent call, or a call awaiting its result that is named
// after the agent (an agent used as a tool, adk.NewAgentTool, whose
// internal events the ChatModelAgent emits); "" if none.
func (t *translator) parentCall(name string) string {
	if id := t.transferCall; id != "" {
		t.transferCall = ""
		return id
	}
	for id, h := range t.calls {
		if h.Name() == name {
			return id
		}
	}
	return ""
}

// chunks yields a message variant's chunks: the stream's, or the one
// message. A stream that fails records the failure.
func (t *translator) chunks(mv *adk.MessageVariant, f func(*schema.Message) error) error {
	if !mv.IsStreaming {
		if mv.Message == nil {
			return nil
		}
		return f(mv.Message)
	}
	s := mv.MessageStream
	if s == nil {
		return nil
	}
	defer s.Close()
	for {
		m, err := s.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			if t.failed == nil {
				t.failed = err
			}
			return nil
		}
		if m == nil {
			continue
		}
		if err := f(m); err != nil {
			return err
		}
	}
}

// assistant streams a model's message: reasoning, text and tool calls,
// each ended when the message is.
func (t *translator) assistant(mv *adk.MessageVariant) error {
	e := t.emitter()
	var (
		msg    *core.MessageHandle
		reason *core.ReasoningHandle
		open   = map[int]*core.ToolCallHandle{}
		order  []*core.ToolCallHandle
		calls  toolCalls
	)
	endReasoning := func() error {
		if reason == nil {
			return nil
		}
		r := reason
		reason = nil
		return r.End()
	}
	err := t.chunks(mv, func(m *schema.Message) error {
		if m.ReasoningContent != "" {
			if reason == nil {
				r, err := e.Reasoning()
				if err != nil {
					return err
				}
				reason = r
			}
			if err := reason.Delta(m.ReasoningContent); err != nil {
				return err
			}
		}
		if m.Content != "" {
			if err := endReasoning(); err != nil {
				return err
			}
			if msg == nil {
				h, err := e.Message()
				if err != nil {
					return err
				}
				msg = h
			}
			if err := msg.Delta(m.Content); err != nil {
				return err
			}
		}
		for i, tc := range m.ToolCalls {
			idx := calls.index(i, tc)
			h := open[idx]
			if h == nil {
				if err := endReasoning(); err != nil {
					return err
				}
				opts := []core.ToolCallOption{core.WithToolCallID(tc.ID)}
				if msg != nil {
					opts = append(opts, core.WithParentMessage(msg.ID()))
				}
				var err error
				if h, err = e.ToolCall(tc.Function.Name, opts...); err != nil {
					return err
				}
				open[idx] = h
				order = append(order, h)
				t.calls[h.ID()] = h
				if tc.Function.Name == transferTool {
					t.transferCall = h.ID()
				}
			}
			if tc.Function.Arguments != "" {
				if err := h.Args(tc.Function.Arguments); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := endReasoning(); err != nil {
		return err
	}
	if msg != nil {
		if err := msg.End(); err != nil {
			return err
		}
	}
	for _, h := range order {
		if err := h.End(); err != nil {
			return err
		}
	}
	return nil
}

// toolResult sends a tool's result: TOOL_CALL_RESULT of the call it
// answers, which this run streamed or an earlier run did (a call resumed
// after an interrupt).
func (t *translator) toolResult(mv *adk.MessageVariant) error {
	var (
		id   string
		text strings.Builder
	)
	err := t.chunks(mv, func(m *schema.Message) error {
		if m.ToolCallID != "" {
			id = m.ToolCallID
		}
		text.WriteString(m.Content)
		return nil
	})
	if err != nil || id == "" {
		return err
	}
	h, ok := t.calls[id]
	if !ok {
		// A call an earlier run streamed: opened and ended again, without
		// its arguments (the client holds them), under the message that
		// made it, as the loop does for a call resumed after approval.
		name, opts := mv.ToolName, []core.ToolCallOption{core.WithToolCallID(id)}
		if c, known := t.earlier[id]; known {
			name = c.name
			opts = append(opts, core.WithParentMessage(c.messageID))
		}
		var err error
		if h, err = t.emitter().ToolCall(name, opts...); err != nil {
			return err
		}
	}
	delete(t.calls, id)
	return h.ResultText(text.String())
}

// earlierCall is a tool call of the input's messages.
type earlierCall struct{ name, messageID string }

// earlierCalls returns the tool calls of msgs' assistant messages by id.
func earlierCalls(msgs []agui.Message) map[string]earlierCall {
	out := map[string]earlierCall{}
	for _, m := range msgs {
		if a, ok := m.(*agui.AssistantMessage); ok {
			for _, c := range a.ToolCalls {
				out[c.ID] = earlierCall{name: c.Function.Name, messageID: a.ID}
			}
		}
	}
	return out
}

// interrupted notes the AG-UI interrupts of an eino interrupt: one per
// root cause, with eino's interrupt id (the id a resume targets), the
// tool call it paused when it is a tool's, and its info. An interrupt
// that names no root cause was built by hand rather than by
// adk.Interrupt, and eino's runner saves no checkpoint for it: it is
// noted as unresumable.
func (t *translator) interrupted(info *adk.InterruptInfo) {
	sub := ""
	if n := len(t.subs); n > 0 {
		sub = t.subs[n-1].ID()
	}
	found := false
	for _, ic := range info.InterruptContexts {
		if ic == nil || !ic.IsRootCause {
			continue
		}
		found = true
		in := newInterrupt(ic.ID, ic.Info)
		in.SubagentRunID = sub
		for _, seg := range slices.Backward(ic.Address) {
			if seg.Type == adk.AddressSegmentTool {
				in.ToolCallID = seg.SubID
				break
			}
		}
		t.interrupts = append(t.interrupts, in)
	}
	if !found {
		t.unresumable = true
	}
}

// newInterrupt is the AG-UI interrupt id with eino's info: a string (or
// Stringer) as its message, anything that encodes as JSON as metadata
// "info".
func newInterrupt(id string, info any) agui.Interrupt {
	in := agui.NewInterrupt(id, ReasonInterrupt)
	switch v := info.(type) {
	case string:
		in.Message = v
	case fmt.Stringer:
		in.Message = v.String()
	}
	if v, ok := jsonValue(info); ok && info != nil {
		in.Metadata = map[string]any{"info": v}
	}
	return in
}

// publishState sends the session's values as the state when they changed
// since last sent. Values that do not encode as JSON are left out.
func (t *translator) publishState() error {
	vals := t.session.values()
	if vals == nil {
		return nil
	}
	b := t.stateJSON(vals)
	if string(b) == string(t.published) {
		return nil
	}
	t.published = b
	var next State
	if err := json.Unmarshal(b, &next); err != nil {
		return err
	}
	return t.rc.UpdateState(func(s *State) { *s = next })
}

// stateJSON encodes the JSON-encodable values of vals, keys sorted.
func (t *translator) stateJSON(vals map[string]any) []byte {
	out := make(map[string]json.RawMessage, len(vals))
	for _, k := range slices.Sorted(maps.Keys(vals)) {
		if b, err := json.Marshal(vals[k]); err == nil {
			out[k] = b
		}
	}
	b, _ := json.Marshal(out)
	return b
}

// jsonValue returns v in decoded-JSON form, if it encodes.
func jsonValue(v any) (any, bool) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, false
	}
	var out any
	if json.Unmarshal(b, &out) != nil {
		return nil, false
	}
	return out, true
}

// closeStreams closes the message stream of an event that is not read.
func closeStreams(ev *adk.AgentEvent) {
	if ev.Output != nil && ev.Output.MessageOutput != nil && ev.Output.MessageOutput.MessageStream != nil {
		ev.Output.MessageOutput.MessageStream.Close()
	}
}
