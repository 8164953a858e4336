package core

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/agui-go/agui"
)

// The transport surface of a [Handler]: what a transport other than
// [Handler.Serve] (package resume, a WebSocket) needs to serve the
// handler's route as Serve does, without reaching into it. A transport
// accepts a request ([Handler.Accept]), builds its run ([Handler.NewRun]),
// admits it ([Handler.Slot], the route's [Gate]), drives it
// ([Runner.Start]) and writes to its client with a [Conn]; it answers
// refusals with its [InputReader] ([Handler.InputReader]). Serve is built
// on the same steps.

// RouteSettings are what a [Handler]'s options set for the transports
// that serve its route (see [Handler.Settings]). It is a plain value.
type RouteSettings struct {
	// Logger receives the route's log lines ([WithHandlerLogger]).
	Logger *slog.Logger
	// Gate is the route's gate ([WithGate]), nil without one.
	Gate *Gate
	// Heartbeat is how long an SSE stream may stay silent
	// ([WithHeartbeat]); 0 is none.
	Heartbeat time.Duration
	// WriteTimeout bounds each write ([WithWriteTimeout]); 0 is none.
	WriteTimeout time.Duration
	// RetryAfter is the Retry-After of the route's 429s
	// ([WithMaxConcurrentRuns]; [DefaultRetryAfter] unless set).
	RetryAfter time.Duration
}

// Settings returns what h's options set for the transports that serve its
// route.
func (h *Handler[S]) Settings() RouteSettings {
	c := &h.t.cfg
	ra := c.ops.retryAfter
	if ra == 0 {
		ra = DefaultRetryAfter
	}
	return RouteSettings{Logger: c.logger, Gate: c.gate, Heartbeat: c.heartbeat, WriteTimeout: c.writeTimeout, RetryAfter: ra}
}

// Accept reads a run request as [Handler.Serve] does before it runs
// anything: it runs the route's principal hook ([InputReader.Authenticate]),
// puts the route's names on the request's context ([RouteFrom]), and reads
// and checks the input ([InputReader.Read]) unless the context carries
// one ([InputFrom]). It returns the request's context carrying all
// three, and the input; or it answers the refusal ([InputReader.Refuse])
// and returns false.
func (h *Handler[S]) Accept(w http.ResponseWriter, r *http.Request) (context.Context, *agui.RunAgentInput, bool) {
	// The principal first: a caller the route cannot name is refused
	// before its body is read.
	r, ok := h.t.Authenticate(w, r)
	if !ok {
		return nil, nil, false
	}
	ctx := h.t.withRoute(r.Context(), r)
	in, ok := InputFrom(ctx)
	if ok {
		h.t.extendDeadline(w) // as ReadInput does, for a refusal to come
	} else {
		var err error
		if in, err = h.t.Read(w, r); err != nil {
			h.t.refuse(ctx, w, asRequestError(err))
			return nil, nil, false
		}
		ctx = ContextWithInput(ctx, in)
	}
	return ctx, in, true
}

// NewRun builds the run of in that [Handler.Serve] would: with the
// handler's run options, then opts, once an [Admitter] agent has taken
// it. ctx is the request's, as [Handler.Accept] returns it. It fails with
// the [*RequestError] to answer ([InputReader.Refuse]); nothing has run
// then.
func (h *Handler[S]) NewRun(ctx context.Context, in *agui.RunAgentInput, opts ...RunOption) (*Runner[S], error) {
	if re := admitAgent(ctx, h.agent, in); re != nil {
		return nil, re
	}
	var run *Runner[S]
	var err error
	if len(opts) == 0 && in.ThreadID != "" && in.RunID != "" {
		// The common case: the handler's own options, resolved once.
		run, err = newRunner(h.agent, in, h.runOpts)
	} else {
		run, err = NewRunner(h.agent, in, append(h.t.cfg.runOptions(), opts...)...)
	}
	if err != nil {
		return nil, inputRequestError(err)
	}
	run.opts.scratch = &h.t.scratch
	return run, nil
}

// Slot takes one of the route's run slots ([WithMaxConcurrentRuns]) for a
// new run. It returns release, to call once the run has ended, or, over
// the cap, the 429 [*RequestError] to answer, having set its Retry-After
// header on w.
func (h *Handler[S]) Slot(w http.ResponseWriter) (release func(), err error) {
	release, re := h.t.admitRun(w)
	if re != nil {
		return nil, re
	}
	return release, nil
}

// errShutting is the refusal of a request a shut [Gate] will not admit.
func errShutting() *RequestError {
	return &RequestError{Status: http.StatusServiceUnavailable, Code: CodeUnavailable,
		Message: "the server is shutting down"}
}
