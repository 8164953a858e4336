package core

import (
	"context"
	"errors"
	"fmt"
	"github.com/agui-go/agui"
	"iter"
	"log/slog"
	"runtime/debug"
	"sync"
)

// Run runs a on in and returns its event stream.
//
// The stream starts with RUN_STARTED and ends with exactly one RUN_FINISHED
// or RUN_ERROR; every yielded error is nil, except a single (nil, err) when
// the input is invalid and nothing was started (see NewRunner). The agent
// runs on a goroutine the stream owns, started when iteration starts.
// Breaking out of the loop cancels the run with a DISCONNECTED cause and
// waits for the agent to return, so no goroutine outlives the loop.
//
// Cancelling ctx cancels the run: the agent's emits fail and the stream
// ends with RUN_ERROR code CANCELLED. A transport that must cancel the run
// from elsewhere uses NewRunner and Runner.Cancel.
func Run[S any](ctx context.Context, a Agent[S], in *agui.RunAgentInput, opts ...Option) iter.Seq2[agui.Event, error] {
	r, err := NewRunner(a, in, opts...)
	if err != nil {
		return func(yield func(agui.Event, error) bool) { yield(nil, err) }
	}
	return r.Events(ctx)
}

// Runner is one run prepared but not started, for transports that need
// the cancellation handle before the stream starts (the response body, the
// connection) and everything that can fail validated before the first
// byte goes out.
//
// A Runner runs once. Cancel is safe for concurrent use with everything
// else; Events is called once, by the goroutine that will consume the
// stream.
type Runner[S any] struct {
	agent Agent[S]
	in    *agui.RunAgentInput
	opts  options
	rc    *RunContext[S]

	mu      sync.Mutex
	started bool
	cancel  context.CancelCauseFunc // set once Events has started
	early   bool                    // Cancel came before Events
	cause   error                   // the cause Cancel gave before Events
}

// NewRunner prepares a run of a on in. It fails with a PROTOCOL *Error
// when a (or an AgentFunc) or in is nil or in has no threadId or runId, with a SERIALIZATION
// *Error when in's state does not decode into S, and with a PROTOCOL
// *Error for an invalid option. in is shared with the agent, not copied.
func NewRunner[S any](a Agent[S], in *agui.RunAgentInput, opts ...Option) (*Runner[S], error) {
	if f, ok := a.(AgentFunc[S]); ok && f == nil {
		a = nil
	}
	switch {
	case a == nil:
		return nil, agui.NewError(agui.CodeProtocol, "core: nil agent")
	case in == nil:
		return nil, agui.NewError(agui.CodeProtocol, "core: nil input")
	case in.ThreadID == "":
		return nil, agui.NewError(agui.CodeProtocol, "core: input has no threadId")
	case in.RunID == "":
		return nil, agui.NewError(agui.CodeProtocol, "core: input has no runId")
	}
	o, err := newOptions(opts)
	if err != nil {
		return nil, err
	}
	rc := &RunContext[S]{in: in}
	if err := rc.state.init(in.State); err != nil {
		return nil, err
	}
	return &Runner[S]{agent: a, in: in, opts: o, rc: rc}, nil
}

// Cancel cancels the run with cause (nil means context.Canceled). It is
// safe to call at any time, from any goroutine, more than once; only the
// first cause counts. Before Events it makes the run start cancelled: the
// stream is RUN_STARTED and RUN_ERROR.
func (r *Runner[S]) Cancel(cause error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cancel != nil {
		r.cancel(cause)
		return
	}
	if !r.early {
		r.early, r.cause = true, cause
	}
}

// Events returns the run's stream, run under ctx; the run starts when
// iteration starts. It has Run's contract. The stream can be ranged over
// once: a second iteration yields a single (nil, err) with a PROTOCOL
// *Error.
func (r *Runner[S]) Events(ctx context.Context) iter.Seq2[agui.Event, error] {
	return func(yield func(agui.Event, error) bool) {
		ctx, cancel, err := r.start(ctx)
		if err != nil {
			yield(nil, err)
			return
		}
		defer cancel(nil)
		r.drive(ctx, cancel, yield)
	}
}

func (r *Runner[S]) start(parent context.Context) (context.Context, context.CancelCauseFunc, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.started {
		return nil, nil, agui.NewError(agui.CodeProtocol, "core: a Runner's events can be ranged over once")
	}
	r.started = true
	ctx, cancel := context.WithCancelCause(parent)
	r.cancel = cancel
	if r.early {
		cancel(r.cause)
	}
	return ctx, cancel, nil
}

// drive is the consumer side of a run: it starts the agent's goroutine,
// passes what the agent emits through the transformer chain to yield, and
// always joins the goroutine before returning.
func (r *Runner[S]) drive(ctx context.Context, cancel context.CancelCauseFunc, yield func(agui.Event, error) bool) {
	out := newSink(yield, r.opts.logger, r.in)
	chainErr := out.build(ctx, r.opts.transformers)
	s := newStream(ctx, r.opts.queue)
	r.rc.Emitter = &Emitter{s: s}

	started := &agui.RunStarted{
		ThreadID:        r.in.ThreadID,
		RunID:           r.in.RunID,
		ParentRunID:     r.in.ParentRunID,
		ProtocolVersion: agui.ProtocolVersion,
	}
	if err := s.observe(started); err != nil {
		out.fail(err)
		return
	}
	if chainErr != nil {
		// A factory panicked: the stream still starts and ends, bypassing
		// a chain that was never built.
		if out.deliver(started) {
			out.fail(chainErr)
		}
		return
	}

	// The agent starts before RUN_STARTED is delivered, so its first model
	// call overlaps with the transport writing headers; RUN_STARTED still
	// comes first, because the agent's events wait in the queue behind it.
	agentDone := make(chan struct{})
	go func() {
		defer close(agentDone)
		r.runAgent(ctx, s)
	}()
	// However drive ends (the consumer left, a transformer failed, a panic
	// in the consumer's loop body), the agent is cancelled and joined.
	cause := error(agui.NewError(agui.CodeDisconnected, "core: the consumer stopped reading the event stream"))
	defer func() {
		cancel(cause)
		<-agentDone
	}()
	stop := func() {
		if out.failure != nil {
			cause = out.failure
		} else if out.ended {
			cause = agui.NewError(agui.CodeTransform, "core: a transformer ended the stream")
		}
		cancel(cause)
		<-agentDone
		out.stop(ctx)
	}

	if !out.deliver(started) {
		stop()
		return
	}
	for ev := range s.queue {
		if !out.deliver(ev) {
			stop()
			return
		}
	}
	out.finish(ctx, s.terminal)
}

// runAgent runs the agent and decides the terminal event. It runs on the
// agent's goroutine, so the driver's auto-close goes through the same
// bounded queue as everything else and the order stays the verifier's.
func (r *Runner[S]) runAgent(ctx context.Context, s *stream) {
	var outcome agui.Outcome
	// The default covers runtime.Goexit in the agent, which skips the
	// assignment below but still runs deferred calls.
	err := error(agui.NewError(agui.CodePanic, "core: the agent's goroutine exited without returning"))
	defer func() { r.finish(ctx, s, outcome, err) }()
	outcome, err = r.call(ctx)
}

// call runs the agent, turning a panic into an AGENT_PANIC error: in Go a
// panic on the agent's goroutine would otherwise end the whole process.
func (r *Runner[S]) call(ctx context.Context) (o agui.Outcome, err error) {
	defer func() {
		if p := recover(); p != nil {
			r.opts.logger.ErrorContext(ctx, "agui: agent panicked",
				slog.String("threadId", LogID(r.in.ThreadID)),
				slog.String("runId", LogID(r.in.RunID)),
				slog.Any("panic", p),
				slog.String("stack", string(debug.Stack())))
			err = &agui.Error{Code: agui.CodePanic, Message: "agent panicked", Err: fmt.Errorf("panic: %v", p)}
		}
	}()
	return r.agent.Run(ctx, r.rc)
}

// finish closes what the agent left open and ends the stream with
// RUN_FINISHED, or with RUN_ERROR when the run was cancelled, the agent
// failed, the outcome is invalid, closing failed or the verifier rejects
// RUN_FINISHED.
func (r *Runner[S]) finish(ctx context.Context, s *stream, o agui.Outcome, err error) {
	if err == nil && ctx.Err() != nil {
		// Cancelled runs end with RUN_ERROR whatever the agent returned:
		// its emits may have failed, so what it opened may not be closed.
		err = s.cancelled()
	}
	if err == nil {
		err = checkOutcome(o)
	}
	if err == nil {
		err = s.closeAll()
	}
	result, usage := r.rc.report.finished()
	if err == nil {
		fin := &agui.RunFinished{ThreadID: r.in.ThreadID, RunID: r.in.RunID, Outcome: &o, Usage: usage}
		if o.Type == agui.OutcomeSuccess {
			fin.Result = result
		}
		if err = s.finish(fin, false); err == nil {
			return
		}
	}
	re := runError(err)
	re.Usage = usage
	if ctx.Err() == nil {
		logFailure(ctx, r.opts.logger, r.in, err, re.Code)
	}
	if ctx.Err() != nil {
		// The run was cancelled: whatever the agent's error says (often a
		// model client's "context canceled" as a plain string), the run
		// ended because it was stopped.
		switch {
		case agui.IsDisconnected(context.Cause(ctx)) && (re.Code == string(agui.CodeCancelled) || re.Code == string(agui.CodeAgent)):
			re.Code = string(agui.CodeDisconnected)
		case re.Code == string(agui.CodeAgent):
			re.Code = string(agui.CodeCancelled)
		}
	}
	// RUN_ERROR is valid at any point of a started run, and it must go
	// out even if a verifier thought otherwise.
	_ = s.finish(re, true)
}

// checkOutcome rejects outcomes the protocol cannot carry.
func checkOutcome(o agui.Outcome) error {
	switch o.Type {
	case agui.OutcomeSuccess, agui.OutcomeCancelled:
		return nil
	case agui.OutcomeInterrupt:
		if len(o.Interrupts) == 0 {
			return agui.NewError(agui.CodeProtocol, "core: an interrupt outcome needs at least one interrupt")
		}
		return nil
	case "":
		return agui.NewError(agui.CodeProtocol, "core: the agent returned the zero Outcome; use Success, Interrupted or Cancelled")
	default:
		return agui.NewError(agui.CodeProtocol, "core: unknown outcome type "+string(o.Type))
	}
}

// asError returns err as an *Error: itself, a copy keeping the code of an
// *Error it wraps but its own message, CANCELLED for a context error, or
// an agent error.
//
// It never panics and never returns nil for a non-nil err: a nil pointer
// inside err (a nil *Error included) or a method of err that panics gives
// an AGENT_ERROR with a fixed message (see agui.ErrorText).
func asError(err error) (e *agui.Error) {
	defer func() {
		if recover() != nil || e == nil {
			e = &agui.Error{Code: agui.CodeAgent, Message: "agent error: " + agui.ErrorText(err), Err: err}
		}
	}()
	if e, ok := err.(*agui.Error); ok {
		return e
	}
	var inner *agui.Error
	if errors.As(err, &inner) && inner != nil {
		return &agui.Error{Code: inner.Code, Message: agui.ErrorText(err), Err: err}
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return &agui.Error{Code: agui.CodeCancelled, Message: "run cancelled: " + agui.ErrorText(err), Err: err}
	}
	return agui.AgentError(err)
}

// runError returns the RUN_ERROR reporting err.
func runError(err error) *agui.RunError {
	e := asError(err)
	return &agui.RunError{Message: e.Message, Code: string(e.Code)}
}

func isTerminal(ev agui.Event) bool {
	t := ev.Type()
	return t == agui.TypeRunFinished || t == agui.TypeRunError
}
