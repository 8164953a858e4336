package core

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"runtime/debug"
	"sync"

	"github.com/agui-go/agui"
)

// Run runs a on in and returns its event stream.
//
// The stream starts with RUN_STARTED and ends with exactly one RUN_FINISHED
// or RUN_ERROR; every yielded error is nil, except a single (nil, err) when
// the input is invalid and nothing was started (see [NewRunner]). The agent
// runs on a goroutine the stream owns, started when iteration starts.
// Breaking out of the loop cancels the run with a DISCONNECTED cause and
// waits for the agent to return, so no goroutine outlives the loop.
//
// Cancelling ctx cancels the run: the agent's emits fail and the stream
// ends with RUN_ERROR code CANCELLED. A transport that must cancel the run
// from elsewhere uses NewRunner and [Runner.Cancel].
func Run[S any](ctx context.Context, a Agent[S], in *agui.RunAgentInput, opts ...RunOption) iter.Seq2[agui.Event, error] {
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
	opts  runConfig
	rc    *RunContext[S]

	mu      sync.Mutex
	started bool
	cancel  context.CancelCauseFunc // set once Events has started
	early   bool                    // Cancel came before Events
	cause   error                   // the cause Cancel gave before Events
}

// NewRunner prepares a run of a on in. It fails with a PROTOCOL *Error
// when a (or an [AgentFunc]) or in is nil or in has no threadId or runId, with a SERIALIZATION
// *Error when in's state does not decode into S, and with a PROTOCOL
// *Error for an invalid option. in is shared with the agent, not copied.
func NewRunner[S any](a Agent[S], in *agui.RunAgentInput, opts ...RunOption) (*Runner[S], error) {
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
	o, err := newRunConfig(opts)
	if err != nil {
		return nil, err
	}
	return newRunner(a, in, o)
}

// newRunner is NewRunner with the options already resolved and a and in
// already checked.
func newRunner[S any](a Agent[S], in *agui.RunAgentInput, o runConfig) (*Runner[S], error) {
	rc := &RunContext[S]{in: in}
	if err := rc.state.init(in.State); err != nil {
		return nil, err
	}
	return &Runner[S]{agent: a, in: in, opts: o, rc: rc}, nil
}

// Cancel cancels the run with cause (nil means [context.Canceled]). It is
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
// iteration starts. It has [Run]'s contract. The stream can be ranged over
// once: a second iteration yields a single (nil, err) with a PROTOCOL
// *Error.
func (r *Runner[S]) Events(ctx context.Context) iter.Seq2[agui.Event, error] {
	return func(yield func(agui.Event, error) bool) {
		d, err := r.Start(ctx, func(ev agui.Event) bool { return yield(ev, nil) })
		if err != nil {
			yield(nil, err)
			return
		}
		defer d.Close()
		for ready := d.Ready(); ready != nil; ready = d.Ready() {
			<-ready
			d.Take()
		}
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
	ctx, cancel = withRunTimeout(ctx, cancel, r.opts.timeout)
	r.cancel = cancel
	if r.early {
		cancel(r.cause)
	}
	return ctx, cancel, nil
}

// runAgent runs the agent and decides the terminal event. It runs on the
// agent's goroutine, so the driver's auto-close goes through the same
// bounded queue as everything else and the order stays the verifier's.
//
// A panic in the agent becomes an AGENT_PANIC error: in Go a panic on the
// agent's goroutine would otherwise end the whole process. The frames
// between the goroutine's start and the agent are kept few and small, so
// that an idle agent fits the runtime's smallest goroutine stack.
func (r *Runner[S]) runAgent(ctx context.Context, s *stream) {
	var (
		outcome  agui.Outcome
		err      error
		returned bool
	)
	defer func() {
		if p := recover(); p != nil {
			err = r.panicked(ctx, p)
		} else if !returned {
			// runtime.Goexit in the agent skips the assignments below
			// but still runs deferred calls.
			err = agui.NewError(agui.CodePanic, "core: the agent's goroutine exited without returning")
		}
		r.finish(ctx, s, outcome, err)
	}()
	if f, ok := r.agent.(AgentFunc[S]); ok {
		outcome, err = f(ctx, r.rc) // one frame fewer than f.Run
	} else {
		outcome, err = r.agent.Run(ctx, r.rc)
	}
	returned = true
}

// panicked logs the agent's panic with its stack and returns the
// AGENT_PANIC error ending the run.
func (r *Runner[S]) panicked(ctx context.Context, p any) error {
	r.opts.logger.ErrorContext(ctx, "core: agent panicked",
		slog.String("thread_id", LogID(r.in.ThreadID)),
		slog.String("run_id", LogID(r.in.RunID)),
		slog.Any("panic", p),
		slog.String("stack", string(debug.Stack())))
	return &agui.Error{Code: agui.CodePanic, Message: "agent panicked", Err: fmt.Errorf("panic: %v", p)}
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
	if de := deadlineError(ctx); de != nil {
		re.Code, re.Message = string(de.Code), de.Message
	}
	if !noteFailure(ctx, err) && ctx.Err() == nil {
		// No handler logs this run's line with the error: log it here.
		logFailure(ctx, r.opts.logger, r.in, err, re.Code)
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
