package core

import (
	"errors"

	"github.com/agui-go/agui"
)

// MessageHandle is an open assistant message. Its methods are safe for
// concurrent use, though deltas from several goroutines interleave in the
// order they are emitted. End is idempotent; the runner calls it for a
// message still open when the agent returns.
type MessageHandle struct {
	e   *Emitter
	id  string
	key uint64
}

// ID returns the message's id.
func (m *MessageHandle) ID() string { return m.id }

// Delta appends text to the message (TEXT_MESSAGE_CONTENT).
func (m *MessageHandle) Delta(text string) error {
	return m.e.s.sendText(m.e, m.id, text)
}

// End closes the message (TEXT_MESSAGE_END) unless it is closed already.
func (m *MessageHandle) End() error { return m.e.s.closeEntry(m.key, nil) }

// StepHandle is an open step. It is safe for concurrent use. End is
// idempotent; the runner calls it for a step still open when the agent
// returns.
type StepHandle struct {
	e    *Emitter
	name string
	key  uint64
}

// Name returns the step's name.
func (s *StepHandle) Name() string { return s.name }

// End closes the step (STEP_FINISHED) unless it is closed already.
func (s *StepHandle) End() error { return s.e.s.closeEntry(s.key, nil) }

// ReasoningHandle is an open reasoning block: a span and its message,
// sharing one id. It is safe for concurrent use. End is idempotent; the
// runner calls it for a block still open when the agent returns.
type ReasoningHandle struct {
	e   *Emitter
	id  string
	key uint64
}

// ID returns the id of the reasoning span and message.
func (r *ReasoningHandle) ID() string { return r.id }

// Delta appends text to the reasoning message (REASONING_MESSAGE_CONTENT).
func (r *ReasoningHandle) Delta(text string) error {
	return r.e.send(&agui.ReasoningMessageContent{MessageID: r.id, Delta: text})
}

// End closes the message and the span (REASONING_MESSAGE_END,
// REASONING_END) unless they are closed already.
func (r *ReasoningHandle) End() error { return r.e.s.closeEntry(r.key, nil) }

// ToolCallHandle is an open tool call. It is safe for concurrent use. End
// is idempotent; the runner calls it for a call still open when the agent
// returns.
type ToolCallHandle struct {
	e    *Emitter
	id   string
	name string
	key  uint64
}

// ID returns the tool call's id.
func (t *ToolCallHandle) ID() string { return t.id }

// Name returns the name of the tool called.
func (t *ToolCallHandle) Name() string { return t.name }

// Args appends delta to the call's JSON arguments (TOOL_CALL_ARGS).
func (t *ToolCallHandle) Args(delta string) error {
	return t.e.send(&agui.ToolCallArgs{ToolCallID: t.id, Delta: delta})
}

// End closes the call's arguments (TOOL_CALL_END) unless they are closed
// already.
func (t *ToolCallHandle) End() error { return t.e.s.closeEntry(t.key, nil) }

// Result ends the call if needed and emits its result as a new tool
// message (TOOL_CALL_RESULT with a fresh message id and role tool).
func (t *ToolCallHandle) Result(content agui.Content) error {
	if err := t.End(); err != nil {
		return err
	}
	return t.e.send(&agui.ToolCallResult{
		MessageID:  t.e.NewID("result"),
		ToolCallID: t.id,
		Content:    content,
		Role:       agui.RoleTool,
	})
}

// ResultText is Result with string content.
func (t *ToolCallHandle) ResultText(text string) error { return t.Result(agui.TextContent(text)) }

// ToolCallOption configures a tool call. Options are plain values, safe
// to share between goroutines.
type ToolCallOption interface{ applyToolCall(*toolCallOptions) }

type toolCallOptions struct{ id, parentMessageID string }

type toolCallID string

func (id toolCallID) applyToolCall(o *toolCallOptions) { o.id = string(id) }

// WithToolCallID gives a tool call the id id instead of a fresh one, for
// agents that relay a model's own call ids (default: a fresh id). The id
// must not be reused within the run.
func WithToolCallID(id string) ToolCallOption { return toolCallID(id) }

// ParentMessageOption links a tool call or a subagent invocation to the
// message it belongs to; build it with [WithParentMessage]. It is a plain
// value, safe to share between goroutines.
type ParentMessageOption struct{ id string }

func (p ParentMessageOption) applyToolCall(o *toolCallOptions) { o.parentMessageID = p.id }
func (p ParentMessageOption) applySubagent(o *subagentOptions) { o.parentMessageID = p.id }

// WithParentMessage sets parentMessageId: for a tool call, the assistant
// message that holds it; for a subagent, the message holding the tool call
// that spawned it. Default: none.
func WithParentMessage(id string) ParentMessageOption { return ParentMessageOption{id: id} }

// Subagent is one open subagent invocation: an [Emitter] whose events are
// attributed to it (nested subagents included), plus its terminators.
//
// A Subagent is safe for concurrent use. Only its first terminator (Finish,
// Suspend or Fail) has an effect; later ones return nil. Each terminator
// first closes whatever is still open inside the invocation, innermost
// first. An invocation still open when the agent returns is finished by
// the runner with no result.
type Subagent struct {
	*Emitter
	key uint64
}

// ID returns the invocation's subagentRunId.
func (s *Subagent) ID() string { return s.subagent }

// Finish closes the invocation as a success (SUBAGENT_FINISHED); result is
// its return value, omitted when nil. Finish takes ownership of result: it
// is encoded after Finish returns, so the caller must not modify it.
func (s *Subagent) Finish(result any) error {
	return s.s.closeEntry(s.key, []agui.Event{&agui.SubagentFinished{SubagentRunID: s.subagent, Result: result}})
}

// Suspend closes the invocation as suspended on the interrupts named
// (SUBAGENT_FINISHED with outcome suspended). Return an interrupt outcome
// from the agent carrying those interrupts.
func (s *Subagent) Suspend(interruptIDs ...string) error {
	return s.s.closeEntry(s.key, []agui.Event{&agui.SubagentFinished{
		SubagentRunID: s.subagent,
		Outcome:       &agui.SubagentOutcome{Type: "suspended", InterruptIDs: interruptIDs},
	}})
}

// Fail closes the invocation as failed (SUBAGENT_ERROR) with err's message
// and code, as for a RUN_ERROR. The run itself goes on.
func (s *Subagent) Fail(err error) error {
	if err == nil {
		err = errors.New("subagent failed")
	}
	e := asError(err)
	return s.s.closeEntry(s.key, []agui.Event{&agui.SubagentError{
		SubagentRunID: s.subagent,
		Message:       e.Message,
		Code:          string(e.Code),
	}})
}

// SubagentOption configures a subagent invocation. Options are plain
// values, safe to share between goroutines.
type SubagentOption interface{ applySubagent(*subagentOptions) }

type subagentOptions struct{ description, parentToolCallID, parentMessageID string }

type subagentFunc func(*subagentOptions)

func (f subagentFunc) applySubagent(o *subagentOptions) { f(o) }

// WithDescription sets the invocation's description, for display. Default:
// none.
func WithDescription(text string) SubagentOption {
	return subagentFunc(func(o *subagentOptions) { o.description = text })
}

// WithParentToolCall names the tool call that spawned the invocation (the
// "agent as tool" pattern). Default: none.
func WithParentToolCall(id string) SubagentOption {
	return subagentFunc(func(o *subagentOptions) { o.parentToolCallID = id })
}
