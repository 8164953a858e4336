package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/agui-go/agui/examples/internal/model"
)

// loopDemo is what the loop route's tools do besides their result: log
// each start (so that tests and operators can count executions) and take
// bookDelay to book; how long each step of the plan route takes
// (stepDelay); and the model the loop-backed routes run on (-model-provider
// and friends; the zero value keeps each route's scripted model). A plain value.
type loopDemo struct {
	logger    *slog.Logger
	bookDelay time.Duration
	stepDelay time.Duration
	model     model.Flags
}

// started logs that tool started running.
func (d loopDemo) started(ctx context.Context, tool string) {
	if d.logger != nil {
		d.logger.InfoContext(ctx, "tool started", slog.String("tool", tool))
	}
}

// book waits bookDelay, or until ctx ends.
func (d loopDemo) book(ctx context.Context) error {
	if d.bookDelay <= 0 {
		return nil
	}
	t := time.NewTimer(d.bookDelay)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}
