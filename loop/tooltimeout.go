package loop

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// KindTimeout is the error kind of a call that outlived its [WithToolTimeout].
const KindTimeout ToolErrorKind = "timeout"

// errToolTimeout is the cause a call's context ends with at its
// [WithToolTimeout].
var errToolTimeout = errors.New("loop: the tool call exceeded its timeout")

// WithToolTimeout bounds each tool call (default 0: no bound). The call's
// context gets a deadline d after the call starts; a call still running
// then is cancelled, and its result is an error result of kind "timeout"
// ([KindTimeout]) that the model sees, whatever the tool returned on the
// way out, so the model can retry or answer without it. The run goes on.
// A tool that ignores its context keeps its batch waiting until it
// returns: the loop never leaves a call running. Delegated agents are
// tools too and get the same bound. A negative d is an error.
func WithToolTimeout(d time.Duration) Option {
	return func(c *config) error {
		if d < 0 {
			return fmt.Errorf("loop: WithToolTimeout %v: must not be negative", d)
		}
		c.toolTimeout = d
		return nil
	}
}

// toolDeadline puts the call's [WithToolTimeout] on ctx. stop releases it and
// reports whether the timeout fired before the call returned.
func (r *run) toolDeadline(ctx context.Context) (tctx context.Context, stop func() (timedOut bool)) {
	d := r.a.cfg.toolTimeout
	if d <= 0 {
		return ctx, func() bool { return false }
	}
	tctx, cancel := context.WithTimeoutCause(ctx, d, errToolTimeout)
	return tctx, func() bool {
		timedOut := errors.Is(context.Cause(tctx), errToolTimeout)
		cancel()
		return timedOut
	}
}

// timeoutText is what the model reads for a call that timed out.
func (r *run) timeoutText() string {
	return fmt.Sprintf("timeout: the tool did not finish within %v", r.a.cfg.toolTimeout)
}
