package core

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync/atomic"
)

// runNote carries what a run's log line needs from the runner back to the
// transport: the full text of the error a failed run ended with, causes
// included, which its RUN_ERROR (what the client sees) may leave out. The
// runner writes it from the agent's goroutine; the transport reads it once
// the stream is over.
type runNote struct{ failure atomic.Pointer[string] }

type runNoteKey struct{}

// withRunNote returns ctx carrying a fresh runNote, and the note.
func withRunNote(ctx context.Context) (context.Context, *runNote) {
	n := new(runNote)
	return context.WithValue(ctx, runNoteKey{}, n), n
}

// noteFailure records err on ctx's runNote and reports whether ctx had
// one (a Handler's run, whose log line then carries the error).
func noteFailure(ctx context.Context, err error) bool {
	n, ok := ctx.Value(runNoteKey{}).(*runNote)
	if !ok || err == nil {
		return ok
	}
	text := errorDetail(err)
	n.failure.Store(&text)
	return true
}

// text returns the recorded failure, or "".
func (n *runNote) text() string {
	if p := n.failure.Load(); p != nil {
		return *p
	}
	return ""
}

// maxErrorDetail bounds the error text a log line carries.
const maxErrorDetail = 4096

// errorDetail is err's text followed by each cause an *agui.Error keeps
// out of its client-facing message, cut to maxErrorDetail bytes. A panic
// in one of err's methods leaves the text gathered so far.
func errorDetail(err error) (s string) {
	defer func() {
		if recover() != nil && s == "" {
			s = "(the error's text could not be read)"
		}
		if len(s) > maxErrorDetail {
			s = strings.ToValidUTF8(s[:maxErrorDetail], "") + "…"
		}
	}()
	s = err.Error()
	for range 8 {
		u := errors.Unwrap(err)
		if u == nil {
			return s
		}
		if t := u.Error(); !strings.Contains(s, t) {
			s += ": " + t
		}
		err = u
	}
	return s
}

// appendRunAttrs appends to a run's log line what operators look for
// first: the route and agent that served it and, for a failed run, the
// error: its full text as the runner saw it, else the RUN_ERROR's message.
func appendRunAttrs(ctx context.Context, attrs []slog.Attr, sw *streamWriter, note *runNote) []slog.Attr {
	ri, _ := RouteFrom(ctx)
	attrs = append(attrs, slog.String("route", ri.Route), slog.String("agent", ri.Agent))
	if sw.outcome != "error" {
		return attrs
	}
	msg := note.text()
	if msg == "" {
		msg = sw.message
	}
	return append(attrs, slog.String("error", msg))
}
