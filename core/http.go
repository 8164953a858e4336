package core

import (
	"context"
	"errors"
	"fmt"
	"github.com/agui-go/agui"
	"iter"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Handler serves one agent over HTTP: it answers a POSTed RunAgentInput
// with the run's event stream, as SSE or protobuf by the request's Accept
// header. Framework adapters (such as package ginagui) are built on Serve.
//
// Before the stream, nothing is written until the input is valid (see
// ReadInput); a refusal is a JSON error body. Then the headers go out with
// RUN_STARTED, each event is one Write, and events already queued share one
// flush. When the client goes away (the request's context ends or a write
// fails) the run is cancelled with a DISCONNECTED error at once. Serve
// returns only after the run's goroutines have exited, and only its own
// goroutine touches the ResponseWriter.
//
// A Handler is safe for concurrent use; each request is one run.
type Handler[S any] struct {
	agent Agent[S]
	t     transport
}

// transport is the part of a Handler that does not depend on the state
// type: it streams any run.
type transport struct {
	cfg handlerConfig
	// warned records which missing ResponseWriter features were logged,
	// so a misconfigured middleware chain logs once, not once per run.
	warned warnings
}

// runHandle is the part of a *Runner the transport uses.
type runHandle interface {
	Cancel(cause error)
	Events(ctx context.Context) iter.Seq2[agui.Event, error]
}

var _ http.Handler = (*Handler[NoState])(nil)

// NewHandler returns a Handler serving a. It fails when a is nil or an
// option, including a run option, is out of range.
func NewHandler[S any](a Agent[S], opts ...HandlerOption) (*Handler[S], error) {
	if a == nil {
		return nil, errors.New("agui: NewHandler needs an agent")
	}
	cfg, err := newHandlerConfig(opts)
	if err != nil {
		return nil, err
	}
	// Check the run options now: once requests come, a failing NewRunner
	// is taken for bad input.
	if _, err := NewRunner(a, agui.NewInput("check", "check"), cfg.runOptions...); err != nil {
		return nil, fmt.Errorf("agui: run options: %w", err)
	}
	return &Handler[S]{agent: a, t: transport{cfg: cfg}}, nil
}

// ServeHTTP serves one run.
func (h *Handler[S]) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.Serve(w, r) }

// ReadInput checks r and decodes its body with the handler's body limit,
// read timeout (see WithReadTimeout) and input limits (see
// WithInputLimits); see the package function ReadInput. Before reading, it moves the
// connection's write deadline as every write of a stream does (see
// WithWriteTimeout): a server's WriteTimeout runs from the request's
// headers, and a slow upload must not use it up before the answer starts.
func (h *Handler[S]) ReadInput(w http.ResponseWriter, r *http.Request) (*agui.RunAgentInput, error) {
	h.t.extendDeadline(w)
	clear := h.t.readDeadline(w)
	in, err := ReadInput(w, r, h.t.cfg.maxBodyBytes, h.t.cfg.decode...)
	if err != nil {
		// The deadline stays: net/http drains an unread body after the
		// handler, and a stalled client must not hold that drain either.
		return nil, timeoutError(err)
	}
	clear()
	if err := h.t.cfg.limits.check(in); err != nil {
		return nil, err
	}
	return in, nil
}

// Serve serves one run, passing opts to it after the handler's own run
// options (adapters pass per-route transformers this way). When r's
// context already carries an input (ContextWithInput), that input is run
// and the body is not read.
func (h *Handler[S]) Serve(w http.ResponseWriter, r *http.Request, opts ...Option) {
	ctx := r.Context()
	in, ok := InputFrom(ctx)
	if ok {
		h.t.extendDeadline(w) // as ReadInput does, for a refusal below
	} else {
		var err error
		if in, err = h.ReadInput(w, r); err != nil {
			asRequestError(err).WriteHTTP(w)
			return
		}
		ctx = ContextWithInput(ctx, in)
	}
	runOpts := make([]Option, 0, 1+len(h.t.cfg.runOptions)+len(opts))
	runOpts = append(runOpts, WithLogger(h.t.cfg.logger))
	runOpts = append(append(runOpts, h.t.cfg.runOptions...), opts...)
	run, err := NewRunner(h.agent, in, runOpts...)
	if err != nil {
		inputRequestError(err).WriteHTTP(w)
		return
	}
	if g := h.t.cfg.gate; g != nil {
		release, forced, ok := g.admit(run.Cancel)
		if !ok {
			(&RequestError{Status: http.StatusServiceUnavailable, Code: CodeUnavailable,
				Message: "the server is shutting down"}).WriteHTTP(w)
			return
		}
		defer release()
		h.t.stream(ctx, w, r, in, run, forced)
		return
	}
	h.t.stream(ctx, w, r, in, run, nil)
}

// extendDeadline moves w's write deadline writeTimeout ahead, or clears
// it when writeTimeout is 0. A ResponseWriter without deadlines is left
// alone here; the stream warns about it when it writes.
func (t *transport) extendDeadline(w http.ResponseWriter) {
	var d time.Time
	if t.cfg.writeTimeout > 0 {
		d = time.Now().Add(t.cfg.writeTimeout)
	}
	_ = http.NewResponseController(w).SetWriteDeadline(d)
}

// errClientGone is the cause a run is cancelled with when its client goes
// away.
var errClientGone error = &agui.Error{Code: agui.CodeDisconnected, Message: "client disconnected"}

// item is one element of a run's event sequence, as passed from the
// goroutine ranging over it to the handler goroutine.
type item struct {
	ev  agui.Event
	err error
}

// streamQueue is how many events the pump goroutine may hold ahead of the
// writer; together with the run's own queue it bounds memory per run.
const streamQueue = 64

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
		// Protobuf only for 1.x consumers: a 0.0.x decoder reads a
		// cancelled outcome as success.
		format = agui.Negotiate(strings.Join(r.Header.Values("Accept"), ","))
		if newerMinor(in.ProtocolVersion) {
			t.cfg.logger.LogAttrs(ctx, slog.LevelWarn, "agui: client speaks a newer protocol minor; serving "+agui.ProtocolVersion,
				slog.String("protocol_version", in.ProtocolVersion), slog.String("run_id", LogID(in.RunID)))
		}
	}

	// The client going away cancels the run at once, not on the next
	// write: the agent may be blocked in a model call.
	stopWatch := context.AfterFunc(r.Context(), func() { run.Cancel(errClientGone) })
	defer stopWatch()

	items := make(chan item, streamQueue)
	quit := make(chan struct{})
	var wg sync.WaitGroup
	// The run's cancellation is driven by Cancel above, with a coded cause;
	// the request's values stay visible to the agent.
	runCtx := context.WithoutCancel(ctx)
	wg.Go(func() {
		defer close(items)
		for ev, err := range run.Events(runCtx) {
			select {
			case items <- item{ev, err}:
			case <-quit:
				return // leaving the range cancels the run and joins the agent
			}
		}
	})
	sw := &streamWriter{
		w:       w,
		rc:      http.NewResponseController(w),
		format:  format,
		legacy:  legacy,
		cfg:     &t.cfg,
		warned:  &t.warned,
		cancel:  run.Cancel,
		in:      in,
		logCtx:  ctx,
		outcome: "disconnected",
		forced:  forced,
	}
	sw.loop(r.Context(), items)
	close(quit)
	if !sw.abandoned {
		wg.Wait()
	}

	if sw.refused != nil {
		sw.refused.WriteHTTP(w)
	}
	t.logRun(ctx, in, sw, time.Since(start))
}

// logRun writes the one log line of a finished run.
func (t *transport) logRun(ctx context.Context, in *agui.RunAgentInput, sw *streamWriter, d time.Duration) {
	attrs := []slog.Attr{
		slog.String("thread_id", LogID(in.ThreadID)),
		slog.String("run_id", LogID(in.RunID)),
		slog.String("outcome", sw.outcome),
	}
	if sw.code != "" {
		attrs = append(attrs, slog.String("code", sw.code))
	}
	attrs = append(attrs, slog.Int("events", sw.events), slog.Duration("duration", d))
	t.cfg.logger.LogAttrs(ctx, slog.LevelInfo, "agui run", attrs...)
}

// newerMinor reports whether v is a 1.x version newer than ours.
func newerMinor(v string) bool {
	_, minor, ok := strings.Cut(v, ".")
	if !ok {
		return false
	}
	n, err := strconv.Atoi(minor)
	return err == nil && n > 0
}

// asRequestError returns err as a *RequestError, wrapping any other error
// as a 422.
func asRequestError(err error) *RequestError {
	if re := (*RequestError)(nil); errors.As(err, &re) {
		return re
	}
	return inputRequestError(err)
}
