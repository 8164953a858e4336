package core

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agui-go/agui"
)

// Handler serves one agent over HTTP: it answers a POSTed RunAgentInput
// with the run's event stream, as SSE or protobuf by the request's Accept
// header. Framework adapters (such as package ginagui) are built on Serve.
//
// Before the stream, nothing is written until the input is valid (see
// [InputReader.Read]); a refusal is a JSON error body. Then the headers go out with
// RUN_STARTED and the agent's first burst (what it emits before it first
// waits, for at most a millisecond), events already queued share one Write
// and one flush, and the terminal event goes out with the response's end:
// a run whose agent answers at once is one write on the connection. Serve's own goroutine is the writer: it waits on the run's queue,
// the idle timer and the request's end together, so when the client goes
// away (the request's context ends or a write fails) the run is cancelled
// with a DISCONNECTED error at once. The run's agent goroutine is the only
// other one; Serve returns only after it has exited, and only Serve's
// goroutine touches the ResponseWriter.
//
// A Handler is safe for concurrent use; each request is one run.
type Handler[S any] struct {
	agent Agent[S]
	t     transport
	// runOpts are the handler's run options resolved once, its logger
	// first: what a run without per-request options uses.
	runOpts runConfig
}

// transport is the part of a Handler that does not depend on the state
// type: it reads requests (its InputReader holds the handler's settings)
// and streams any run.
type transport struct {
	InputReader
	// warned records which missing ResponseWriter features were logged,
	// so a misconfigured middleware chain logs once, not once per run.
	warned warnings
	// running counts the runs streaming, for WithMaxConcurrentRuns.
	running atomic.Int64
	// bufs holds the streams' write buffers (*[]byte) between bursts, so
	// an idle stream holds none and a busy handler reuses a few.
	bufs sync.Pool
	// scratch holds what finished runs grew (*runScratch) for the next.
	scratch sync.Pool
}

// runHandle is the part of a *Runner the transport uses: begin starts the
// run and hands the writer its queue (see driver).
type runHandle interface {
	Cancel(cause error)
	begin(ctx context.Context, yield func(agui.Event) bool) (runQueue, error)
}

var _ http.Handler = (*Handler[NoState])(nil)

// NewHandler returns a [Handler] serving a. It fails when a is nil or an
// option, including a run option, is out of range. The run options of
// opts (the [Option]s) apply to every run, after the handler's logger
// ([WithHandlerLogger]).
func NewHandler[S any](a Agent[S], opts ...HandlerOption) (*Handler[S], error) {
	if a == nil {
		return nil, errors.New("core: NewHandler needs an agent")
	}
	// The options, run options included, are checked now: once requests
	// come, a failing run option would be taken for bad input.
	cfg, err := newHandlerConfig(opts)
	if err != nil {
		return nil, err
	}
	runOpts, err := newRunConfig(cfg.runOptions())
	if err != nil {
		return nil, fmt.Errorf("core: run options: %w", err)
	}
	return &Handler[S]{agent: a, t: transport{InputReader: InputReader{cfg: cfg}}, runOpts: runOpts}, nil
}

// InputReader returns the reader h reads its requests with: an adapter
// that decodes the input ahead of [Handler.Serve] (to put it on its own
// request's context, say) reads and refuses with it, as Serve does.
func (h *Handler[S]) InputReader() *InputReader { return &h.t.InputReader }

// ServeHTTP serves one run.
func (h *Handler[S]) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.Serve(w, r) }

// Serve serves one run, passing opts to it after the handler's own run
// options (adapters pass per-route transformers this way). When r's
// context already carries an input ([ContextWithInput]), that input is run
// and the body is not read.
func (h *Handler[S]) Serve(w http.ResponseWriter, r *http.Request, opts ...RunOption) {
	// The goroutine waits under this frame for as long as the stream is
	// open, and net/http's header write (a 2.8 KiB frame, then a sort)
	// runs under it on the first flush: reading the input and building the
	// run happen in prepare, which has returned by then, so that the
	// goroutine fits 8 KiB of stack behind Gin's frames too (see
	// BENCHMARKS.md, what an idle open stream holds).
	ctx, in, run := h.prepare(w, r, opts)
	if run == nil {
		return
	}
	h.t.admit(ctx, w, r, in, run)
}

// prepare reads the input (unless r's context carries one) and builds the
// run; on a refusal it answers w and returns a nil run.
func (h *Handler[S]) prepare(w http.ResponseWriter, r *http.Request, opts []RunOption) (context.Context, *agui.RunAgentInput, *Runner[S]) {
	ctx, in, ok := h.Accept(w, r)
	if !ok {
		return nil, nil, nil
	}
	run, err := h.NewRun(ctx, in, opts...)
	if err != nil {
		h.t.refuse(ctx, w, asRequestError(err))
		return nil, nil, nil
	}
	return ctx, in, run
}

// admit streams run once WithMaxConcurrentRuns and the Gate (if any) let
// it start, and answers the refusal otherwise.
func (t *transport) admit(ctx context.Context, w http.ResponseWriter, r *http.Request, in *agui.RunAgentInput, run runHandle) {
	release, refused := t.admitRun(w)
	if refused != nil {
		t.refuse(ctx, w, refused)
		return
	}
	defer release()
	if g := t.cfg.gate; g != nil {
		t.streamGated(ctx, w, r, in, run, g)
		return
	}
	t.stream(ctx, w, r, in, run, nil)
}

// streamGated streams run once g admits it, and answers 503 when g is
// shutting down.
func (t *transport) streamGated(ctx context.Context, w http.ResponseWriter, r *http.Request, in *agui.RunAgentInput, run runHandle, g *Gate) {
	release, forced, ok := g.Admit(run.Cancel)
	if !ok {
		t.refuse(ctx, w, errShutting())
		return
	}
	defer release()
	t.stream(ctx, w, r, in, run, forced)
}

// extendDeadline moves w's write deadline writeTimeout ahead, or clears
// it when writeTimeout is 0. A ResponseWriter without deadlines is left
// alone here; the stream warns about it when it writes.
func (ir *InputReader) extendDeadline(w http.ResponseWriter) {
	var d time.Time
	if ir.cfg.writeTimeout > 0 {
		d = time.Now().Add(ir.cfg.writeTimeout)
	}
	_ = http.NewResponseController(w).SetWriteDeadline(d)
}

// errClientGone is the cause a run is cancelled with when its client goes
// away.
var errClientGone error = &agui.Error{Code: agui.CodeDisconnected, Message: "client disconnected"}

// stream runs the agent and writes its events until the run ends or the
// client goes away.
//
// When forced is closed (a Gate's shutdown deadline passed), the stream
// ends with RUN_ERROR (CANCELLED) without waiting for the run: its agent
// ignored cancellation, and its goroutines are left to finish on their
// own.
func (t *transport) stream(ctx context.Context, w http.ResponseWriter, r *http.Request, in *agui.RunAgentInput, run runHandle, forced <-chan struct{}) {
	start := time.Now()
	legacy := in.ProtocolVersion == ""
	format := agui.FormatSSE
	if !legacy {
		format = t.negotiate(ctx, r, in)
	}

	sw := &streamWriter{
		w:       w,
		rc:      *http.NewResponseController(w),
		format:  format,
		legacy:  legacy,
		cfg:     &t.cfg,
		t:       t,
		bufs:    &t.bufs,
		cancel:  run.Cancel,
		in:      in,
		logCtx:  ctx,
		outcome: "disconnected",
		forced:  forced,
	}
	// The run's cancellation is driven by Cancel, with a coded cause; the
	// request's values stay visible to the agent. The writer itself
	// watches the request's end, and cancels the run the moment it sees it.
	runCtx, note := withRunNote(context.WithoutCancel(ctx))
	q, err := run.begin(runCtx, sw.handle)
	if err != nil {
		sw.refused = inputRequestError(err)
		sw.outcome, sw.code = "refused", string(sw.refused.Code)
	} else {
		func() {
			defer func() {
				if sw.abandoned {
					q.Abandon()
				} else {
					q.Close()
				}
			}()
			sw.loop(r.Context(), q)
		}()
	}

	if sw.refused != nil {
		t.refuse(ctx, w, sw.refused)
		return
	}
	t.logRun(ctx, in, sw, time.Since(start), note)
}

// negotiate picks the format of a 1.x client's stream by its Accept
// header, and warns when the client speaks a newer minor version. Only
// 1.x clients get protobuf: a 0.0.x decoder reads a cancelled outcome as
// success.
func (t *transport) negotiate(ctx context.Context, r *http.Request, in *agui.RunAgentInput) agui.Format {
	if newerMinor(in.ProtocolVersion) {
		t.cfg.logger.LogAttrs(ctx, slog.LevelWarn, "core: client speaks a newer protocol minor; serving "+agui.LatestProtocolVersion,
			slog.String("protocol_version", in.ProtocolVersion), slog.String("thread_id", LogID(in.ThreadID)), slog.String("run_id", LogID(in.RunID)))
	}
	return agui.Negotiate(strings.Join(r.Header.Values("Accept"), ","))
}

// logRun writes the one log line of a finished run. Its attributes are
// built only for a logger that takes the line (they were 4 % of a short
// run's allocated bytes behind a discarding one).
func (t *transport) logRun(ctx context.Context, in *agui.RunAgentInput, sw *streamWriter, d time.Duration, note *runNote) {
	if !t.cfg.logger.Enabled(ctx, slog.LevelInfo) {
		return
	}
	attrs := []slog.Attr{
		slog.String("thread_id", LogID(in.ThreadID)),
		slog.String("run_id", LogID(in.RunID)),
		slog.String("outcome", sw.outcome),
	}
	if sw.code != "" {
		attrs = append(attrs, slog.String("code", sw.code))
	}
	attrs = appendRunAttrs(ctx, attrs, sw, note)
	attrs = append(attrs, slog.Int("events", sw.events), slog.Duration("duration", d))
	t.cfg.logger.LogAttrs(ctx, slog.LevelInfo, "agui run", attrs...)
}

// newerMinor reports whether v is a 1.x version newer than ours (1.1).
func newerMinor(v string) bool {
	_, minor, ok := strings.Cut(v, ".")
	if !ok {
		return false
	}
	n, err := strconv.Atoi(minor)
	return err == nil && n > 1
}

// asRequestError returns err as a *RequestError, wrapping any other error
// as a 422.
func asRequestError(err error) *RequestError {
	if re := (*RequestError)(nil); errors.As(err, &re) {
		return re
	}
	return inputRequestError(err)
}
