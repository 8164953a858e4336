package core

// This file is the runner's API contract as stubs, so that packages built
// on core compile while the runner is written. The runner's implementation
// replaces it file by file (run.go, runner.go, context.go, emitter.go,
// handles.go, state.go, options.go) and deletes this file.

import (
	"context"
	"iter"
	"log/slog"
)

// Agent is an AG-UI agent whose shared state has type S (NoState for an
// agent that publishes none).
type Agent[S any] interface {
	Run(ctx context.Context, rc *RunContext[S]) (Outcome, error)
}

// AgentFunc adapts a function to an Agent.
type AgentFunc[S any] func(ctx context.Context, rc *RunContext[S]) (Outcome, error)

// Run calls f.
func (f AgentFunc[S]) Run(ctx context.Context, rc *RunContext[S]) (Outcome, error) { return f(ctx, rc) }

// NoState is the state type of agents that publish no state.
type NoState struct{}

// Option configures a run.
type Option interface{ apply(*options) }

type options struct {
	queue        int
	transformers []NewTransformer
	logger       *slog.Logger
}

type optionFunc func(*options)

func (f optionFunc) apply(o *options) { f(o) }

// WithQueueSize bounds the events queued between the agent and the
// consumer (default 64). A full queue blocks the agent's next emit.
func WithQueueSize(n int) Option { return optionFunc(func(o *options) { o.queue = n }) }

// WithTransformers passes the stream through a chain built per run from
// ts, in order.
func WithTransformers(ts ...NewTransformer) Option {
	return optionFunc(func(o *options) { o.transformers = append(o.transformers, ts...) })
}

// WithLogger sets the logger for recovered panics (default slog.Default()).
func WithLogger(l *slog.Logger) Option { return optionFunc(func(o *options) { o.logger = l }) }

// Run runs a on in and returns its event stream. The stream starts with
// RUN_STARTED and ends with exactly one RUN_FINISHED or RUN_ERROR; every
// yielded error is nil, except a single (nil, err) when the input is
// invalid and nothing was started. Breaking out of the loop cancels the run
// (DISCONNECTED) and waits for the agent to return.
func Run[S any](ctx context.Context, a Agent[S], in *RunAgentInput, opts ...Option) iter.Seq2[Event, error] {
	panic("not implemented")
}

// Runner is one run prepared but not started, for transports that need the
// cancellation handle before the stream starts.
type Runner[S any] struct{}

// NewRunner prepares a run of a on in. It fails when in is invalid.
func NewRunner[S any](a Agent[S], in *RunAgentInput, opts ...Option) (*Runner[S], error) {
	panic("not implemented")
}

// Cancel cancels the run with cause; safe to call at any time, from any
// goroutine, more than once.
func (r *Runner[S]) Cancel(cause error) { panic("not implemented") }

// Events starts the run under ctx and returns its stream; it may be ranged
// over once.
func (r *Runner[S]) Events(ctx context.Context) iter.Seq2[Event, error] {
	panic("not implemented")
}

// RunContext is what an agent is handed for one run. Its methods are safe
// for concurrent use.
type RunContext[S any] struct {
	*Emitter
}

// Input returns the run's input.
func (rc *RunContext[S]) Input() *RunAgentInput { panic("not implemented") }

// State returns a copy of the current state.
func (rc *RunContext[S]) State() S { panic("not implemented") }

// UpdateState applies f to the state and publishes the change as the
// smaller of a STATE_SNAPSHOT and a STATE_DELTA; nothing when unchanged.
func (rc *RunContext[S]) UpdateState(f func(*S)) error { panic("not implemented") }

// ResumeFor returns the client's answer to interrupt id, if the input
// carries one.
func (rc *RunContext[S]) ResumeFor(id string) (ResumeEntry, bool) { panic("not implemented") }

// ResumeCovers reports whether the input's resume answers every one of
// ids.
func (rc *RunContext[S]) ResumeCovers(ids ...string) bool { panic("not implemented") }

// Emitter emits events on behalf of one owner: the run's own agent or one
// subagent invocation. Its methods are safe for concurrent use.
type Emitter struct{}

// Say streams text as one whole assistant message.
func (e *Emitter) Say(text string) error { panic("not implemented") }

// Message opens an assistant message.
func (e *Emitter) Message() (*MessageHandle, error) { panic("not implemented") }

// Step opens a step; defer its End.
func (e *Emitter) Step(name string) (*StepHandle, error) { panic("not implemented") }

// Think emits text as one whole reasoning block.
func (e *Emitter) Think(text string) error { panic("not implemented") }

// Reasoning opens a reasoning block (span and message).
func (e *Emitter) Reasoning() (*ReasoningHandle, error) { panic("not implemented") }

// ToolCall opens a tool call named name.
func (e *Emitter) ToolCall(name string, opts ...ToolCallOption) (*ToolCallHandle, error) {
	panic("not implemented")
}

// Emit emits ev as it is, after the verifier has accepted it.
func (e *Emitter) Emit(ev Event) error { panic("not implemented") }

// Subagent opens a subagent invocation named name.
func (e *Emitter) Subagent(name string, opts ...SubagentOption) (*Subagent, error) {
	panic("not implemented")
}

// NewID mints an id unique within the run, starting with prefix.
func (e *Emitter) NewID(prefix string) string { panic("not implemented") }

// MessageHandle is an open assistant message. End is idempotent.
type MessageHandle struct{}

func (m *MessageHandle) ID() string              { panic("not implemented") }
func (m *MessageHandle) Delta(text string) error { panic("not implemented") }
func (m *MessageHandle) End() error              { panic("not implemented") }

// StepHandle is an open step. End is idempotent.
type StepHandle struct{}

func (s *StepHandle) End() error { panic("not implemented") }

// ReasoningHandle is an open reasoning block. End is idempotent.
type ReasoningHandle struct{}

func (r *ReasoningHandle) ID() string              { panic("not implemented") }
func (r *ReasoningHandle) Delta(text string) error { panic("not implemented") }
func (r *ReasoningHandle) End() error              { panic("not implemented") }

// ToolCallHandle is an open tool call.
type ToolCallHandle struct{}

func (t *ToolCallHandle) ID() string              { panic("not implemented") }
func (t *ToolCallHandle) Args(delta string) error { panic("not implemented") }

// End closes the arguments. It is idempotent.
func (t *ToolCallHandle) End() error { panic("not implemented") }

// Result ends the call if needed and emits its result.
func (t *ToolCallHandle) Result(content Content) error { panic("not implemented") }

// ToolCallOption configures a tool call.
type ToolCallOption interface{ applyToolCall(*toolCallOptions) }

type toolCallOptions struct{ id, parentMessageID string }

// Subagent is one open subagent invocation: an Emitter whose events are
// attributed to it, plus its terminators.
type Subagent struct {
	*Emitter
}

func (s *Subagent) ID() string                           { panic("not implemented") }
func (s *Subagent) Finish(result any) error              { panic("not implemented") }
func (s *Subagent) Suspend(interruptIDs ...string) error { panic("not implemented") }
func (s *Subagent) Fail(err error) error                 { panic("not implemented") }

// SubagentOption configures a subagent invocation.
type SubagentOption interface{ applySubagent(*subagentOptions) }

type subagentOptions struct{ description, parentToolCallID, parentMessageID string }
