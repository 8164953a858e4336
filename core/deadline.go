package core

import (
	"context"
	"errors"
	"time"

	"github.com/agui-go/agui"
)

// CodeDeadline is the RUN_ERROR code of a run stopped by its deadline
// ([WithRunTimeout]). It is distinct from CANCELLED, which means someone
// stopped the run (a shutdown, a caller's context), so operators and
// clients can tell a run that was too slow from one that was stopped.
const CodeDeadline agui.Code = "DEADLINE_EXCEEDED"

// errRunDeadline is the cause a run's context ends with at its deadline.
var errRunDeadline error = &agui.Error{Code: CodeDeadline, Message: "the run exceeded its deadline"}

// WithRunTimeout bounds a run's duration (default 0: no bound). The run's
// context gets a deadline d after the run starts, so the agent, its model
// calls and its tools see it (ctx.Deadline); when it passes, the run is
// cancelled and its stream ends with RUN_ERROR code DEADLINE_EXCEEDED
// ([CodeDeadline]), whatever error the agent returned on the way out. Pass
// it to [NewHandler] (or ginagui.Register) for a per-route deadline. A negative
// d makes [NewRunner] and [NewHandler] fail.
func WithRunTimeout(d time.Duration) Option {
	return runOption(func(c *runConfig) { c.timeout = d })
}

// checkRunTimeout rejects a negative WithRunTimeout.
func checkRunTimeout(d time.Duration) error {
	if d < 0 {
		return agui.NewError(agui.CodeProtocol, "core: WithRunTimeout needs a non-negative duration")
	}
	return nil
}

// withRunTimeout puts the run's deadline on ctx, whose cancel function is
// cancel, and returns the context and a cancel function releasing both.
func withRunTimeout(ctx context.Context, cancel context.CancelCauseFunc, d time.Duration) (context.Context, context.CancelCauseFunc) {
	if d <= 0 {
		return ctx, cancel
	}
	ctx, stop := context.WithTimeoutCause(ctx, d, errRunDeadline)
	return ctx, func(cause error) {
		cancel(cause)
		stop()
	}
}

// deadlineError returns the error ending a run whose context is done
// because its deadline passed, or nil when the run ended otherwise.
func deadlineError(ctx context.Context) *agui.Error {
	if ctx.Err() == nil || !errors.Is(context.Cause(ctx), errRunDeadline) {
		return nil
	}
	return errRunDeadline.(*agui.Error)
}
