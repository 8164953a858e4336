package core

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/agui-go/agui"
)

// Refusal is a run request a [Handler] answered with an error before any
// event: a 4xx for a request it will not run (see [InputReader.Read]), a 429 over
// the concurrent-run cap (see [WithMaxConcurrentRuns]), a 503 from a shut
// [Gate], or an [Admitter]'s refusal. It is what the handler logs and passes to [WithRefusalHook].
//
// A Refusal is a plain value, safe to copy and share.
type Refusal struct {
	// RouteInfo names the route and agent that refused (see WithRoute).
	RouteInfo
	// Status is the HTTP status answered, Code and Message the JSON
	// body's code and error (see [RequestError]).
	Status  int
	Code    agui.Code
	Message string
	// ThreadID and RunID are the input's, once it was decoded; "" before.
	ThreadID, RunID string
}

// WithRefusalHook makes the handler call f once for every request it
// refuses, after the answer is written (default: none; the refusal is
// logged either way). f runs on the request's goroutine and gets its
// context; it must be safe for concurrent use. Metrics sinks count
// refusals with it, as aguiprom's Sink.Refused does.
func WithRefusalHook(f func(ctx context.Context, r Refusal)) HandlerOption {
	return handlerOption(func(c *handlerConfig) { c.ops.refused = f })
}

// Refuse answers r with err as a JSON error (see [RequestError]; any other
// error is a 422), before anything else is written to w, and reports it
// as the handler reports its own refusals: one log line at level Info
// with the route, agent, status, code and message, and the refusal hook
// ([WithRefusalHook]). Adapters that read the input themselves (see
// [InputReader.Read]) answer its errors with it.
func (ir *InputReader) Refuse(w http.ResponseWriter, r *http.Request, err error) {
	ctx := ir.withRoute(r.Context(), r)
	ir.refuse(ctx, w, asRequestError(err))
}

// refuse writes re and reports it. ctx carries the route (withRoute) and,
// once decoded, the input.
func (ir *InputReader) refuse(ctx context.Context, w http.ResponseWriter, re *RequestError) {
	// A refusal is a write like a stream's: it gets its own write window.
	// The one set before the body read has passed by the time a stalled
	// body's 408 is written whenever the write timeout is no longer than
	// the read timeout (both default to 30 s), and the client would get an
	// EOF instead of the 408.
	ir.extendDeadline(w)
	re.WriteHTTP(w)
	rf := Refusal{Status: re.Status, Code: re.Code, Message: re.Message}
	rf.RouteInfo, _ = RouteFrom(ctx)
	if in, ok := InputFrom(ctx); ok {
		rf.ThreadID, rf.RunID = in.ThreadID, in.RunID
	}
	attrs := []slog.Attr{
		slog.String("route", rf.Route),
		slog.String("agent", rf.Agent),
		slog.Int("status", rf.Status),
		slog.String("code", string(rf.Code)),
		// The message can quote the client's input (a protocol version,
		// a role): bounded, as ids are.
		slog.String("error", logText(rf.Message)),
	}
	if rf.RunID != "" {
		attrs = append(attrs, slog.String("thread_id", LogID(rf.ThreadID)), slog.String("run_id", LogID(rf.RunID)))
	}
	ir.cfg.logger.LogAttrs(ctx, slog.LevelInfo, "agui refused", attrs...)
	if f := ir.cfg.ops.refused; f != nil {
		f(ctx, rf)
	}
}
