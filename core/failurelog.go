package core

import (
	"context"
	"errors"
	"log/slog"
	"strings"

	"github.com/agui-go/agui"
)

// logFailure logs why a run failed, with the whole error: a client sees
// only the RUN_ERROR's code and message, which for provider, tool and
// store failures is deliberately generic, so the log is where the cause
// (an address, a status, a path) is found. Cancellation and disconnection
// are the client's doing and are not logged here.
func logFailure(ctx context.Context, l *slog.Logger, in *agui.RunAgentInput, err error, code string) {
	if code == string(agui.CodeCancelled) || code == string(agui.CodeDisconnected) {
		return
	}
	l.LogAttrs(ctx, slog.LevelWarn, "core: run failed",
		slog.String("thread_id", LogID(in.ThreadID)),
		slog.String("run_id", LogID(in.RunID)),
		slog.String("code", code),
		slog.String("error", logText(fullText(err))))
}

// fullText is err's text followed by the causes an *agui.Error keeps out
// of its client-facing message. It never panics (see agui.ErrorText).
func fullText(err error) (s string) {
	s = agui.ErrorText(err)
	defer func() {
		if recover() != nil {
			return // an Unwrap or As method of err panicked: keep what we have
		}
	}()
	for range 8 {
		var e *agui.Error
		if !errors.As(err, &e) || e == nil || e.Err == nil {
			return s
		}
		cause := agui.ErrorText(e.Err)
		if !strings.Contains(s, cause) {
			s += ": " + cause
		}
		err = e.Err
	}
	return s
}
