package resume

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// Handler serves a [core.Handler]'s agent on a resumable route: a run is
// a log (see [Log]) and a dropped connection loses nothing.
//
// A POST starts the run on a goroutine of its own, not on the request: the
// run's events are numbered and stored in the log, and every connection,
// the first included, reads the log from a cursor and follows it, so an
// event reaches a client only once the log has stored it. Each event goes
// out as "id: <seq>\ndata: <json>\n\n"; heartbeats carry no id. The
// response's Content-Location header is the run's URL, <route>/runs/<runId>:
//
//   - GET on it, with a Last-Event-ID header (or ?after=<seq>), replays
//     the events after that one and follows the run to its terminal event;
//     a finished run is replayed while the log retains it. An unknown run
//     is answered 404, a run that was known to the client (a cursor was
//     sent) but is no longer retained 410, a cursor beyond the log 400,
//     all with a JSON error body.
//   - DELETE on it stops the run (202), whichever process runs it.
//   - A POST with the runId of a known run joins it instead of running it
//     twice, after its Last-Event-ID when one is sent.
//   - GET <route>/threads/<threadId>/run follows the thread's active run
//     (204 when there is none), for a page that was reloaded.
//
// When the last connection of a run goes away the run is cancelled at
// once, as on a [core.Handler], unless [WithDetach] gives it a grace period. A run
// belongs to the principal that started it (see [core.WithPrincipal], whose hook
// runs on every method here, a failure being a 401): any other principal
// gets 403 on its rejoin or stop, is not counted as a viewer, and finds
// only its own runs as a thread's active run. When the log refuses a new
// run ([ErrLogFull], or a store that is down) the run is served by the
// plain [core.Handler] instead, without ids.
// Resumable streams are SSE of the JSON encoding; protobuf is not
// offered. The log keeps the events as AG-UI 1.1 has them, and each
// connection gets exactly what a plain route would serve its own client,
// whoever started the run: a 1.1 client the events and protocolVersion
// "1.1" on RUN_STARTED, a 1.0 client [agui.Downgrade10]'s and "1.0", a
// pre-1.0 client [agui.Downgrade]'s. A POST tells its client's version
// by its protocolVersion; a GET by ?protocolVersion=<v>, by ?downgrade=1
// for a pre-1.0 client, or else is served as a 1.0 client; the run URL
// answered to a client carries its own.
// A run id is one escaped segment of its URL, which is at most
// [MaxRunURLLen] bytes long.
//
// ServeHTTP dispatches on the method and the path values of a
// net/http.ServeMux pattern: mount the handler on "POST /chat",
// "GET /chat/runs/{runId}", "DELETE /chat/runs/{runId}" and
// "GET /chat/threads/{threadId}/run"; framework adapters call Start,
// Rejoin, Stop and Active instead.
//
// A Handler is safe for concurrent use. It owns the goroutines of
// the runs it started; Close cancels them and waits for them.
type Handler[S any] struct {
	h   *core.Handler[S]
	ir  *core.InputReader // h's: it refuses and authenticates as h does
	set core.RouteSettings
	log Log
	cfg config

	mu     sync.Mutex
	runs   map[string]*ownedRun
	closed bool
	wg     sync.WaitGroup

	detached detachCount // see WithMaxDetachedRuns
	// bufs holds the followers' write buffers (*[]byte) between bursts,
	// and scratch the owners' batches and encoding buffers
	// (*ownerScratch) between runs.
	bufs, scratch sync.Pool
}

// ownedRun is a run this process runs and writes to the log.
type ownedRun struct {
	lease  Lease
	cancel func(error)

	mu      sync.Mutex
	viewers int       // local connections following the run
	leftAt  time.Time // when viewers last dropped to 0
	changed chan struct{}

	// gateForced (the gate's, nil without one) and force (closed by
	// Close) ask the owner to store the terminal event now, for an
	// agent that ignores its cancellation.
	gateForced <-chan struct{}
	force      chan struct{}
	forceOnce  sync.Once
	// ended is closed once the run's log holds its terminal event, or the
	// run is over without one; onEnd is called then, once.
	ended   chan struct{}
	endOnce sync.Once
	onEnd   func()
}

// forceEnd asks the owner to end the run's log at once.
func (o *ownedRun) forceEnd() { o.forceOnce.Do(func() { close(o.force) }) }

// end marks the run ended (see ended).
func (o *ownedRun) end() {
	o.endOnce.Do(func() {
		close(o.ended)
		if o.onEnd != nil {
			o.onEnd()
		}
	})
}

func (o *ownedRun) enter() {
	o.mu.Lock()
	o.viewers++
	o.mu.Unlock()
	o.signal()
}

func (o *ownedRun) leave() {
	o.mu.Lock()
	o.viewers--
	if o.viewers == 0 {
		o.leftAt = time.Now()
	}
	o.mu.Unlock()
	o.signal()
}

func (o *ownedRun) signal() {
	select {
	case o.changed <- struct{}{}:
	default:
	}
}

func (o *ownedRun) presence() (viewers int, leftAt time.Time) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.viewers, o.leftAt
}

// Tuning of the log traffic.
const (
	readBatch   = 512 // entries per Read
	commitBatch = 256 // entries per Append at most
	storeOutage = 10 * time.Second
)

var (
	errStopped   error = &agui.Error{Code: agui.CodeCancelled, Message: "the run was stopped"}
	errAbandoned error = &agui.Error{Code: agui.CodeDisconnected, Message: "no client came back within the grace period"}
	errClosing   error = &agui.Error{Code: agui.CodeCancelled, Message: "the server is shutting down"}
	errTooLong   error = &agui.Error{Code: agui.CodeCancelled, Message: "the run reached its maximum duration"}
)

// New serves h's agent, with h's options, on a resumable route whose
// runs are kept in lg; opts are the resumable route's own. Its principal
// hook is h's ([core.WithPrincipal]), and so are its limits, gate,
// heartbeat and write timeout. It fails when h or lg is nil or an option
// is out of range.
func New[S any](h *core.Handler[S], lg Log, opts ...Option) (*Handler[S], error) {
	if h == nil || lg == nil {
		return nil, errors.New("resume: New needs a handler and a log")
	}
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	return &Handler[S]{h: h, ir: h.InputReader(), set: h.Settings(), log: lg, cfg: cfg, runs: map[string]*ownedRun{}}, nil
}

// Base returns the plain handler the route's runs are served by: its
// principal hook and input reader ([core.Handler.InputReader]) are the
// route's.
func (rh *Handler[S]) Base() *core.Handler[S] { return rh.h }

// Capabilities returns what the route's capabilities endpoint declares:
// the plain handler's ([core.Handler.Capabilities]), with
// transport.resumable set and transport.httpBinary unset, as resumable
// streams are SSE only. Serve it with [core.NewCapabilitiesHandler] and
// Base's input reader, as ginagui.RegisterResumable does.
func (rh *Handler[S]) Capabilities() agui.Capabilities {
	caps := rh.h.Capabilities()
	tr := agui.TransportCapabilities{}
	if caps.Transport != nil {
		tr = *caps.Transport
	}
	tr.Resumable, tr.HTTPBinary = new(true), new(false)
	caps.Transport = &tr
	return caps
}

// ServeHTTP serves a request of a resumable route; see [Handler].
func (rh *Handler[S]) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodPost:
		rh.Start(w, r)
	case r.Method == http.MethodGet && r.PathValue("runId") != "":
		rh.Rejoin(w, r, r.PathValue("runId"))
	case r.Method == http.MethodGet && r.PathValue("threadId") != "":
		rh.Active(w, r, r.PathValue("threadId"))
	case r.Method == http.MethodDelete && r.PathValue("runId") != "":
		rh.Stop(w, r, r.PathValue("runId"))
	default:
		rh.ir.Refuse(w, r, &core.RequestError{Status: http.StatusMethodNotAllowed, Code: core.CodeMethodNotAllowed,
			Message: "a run is started with POST"})
	}
}

// Start starts the run POSTed in r, or joins it when its runId is known,
// and follows it. opts are passed to a new run after the handler's own
// run options, as [core.Handler.Serve] does.
func (rh *Handler[S]) Start(w http.ResponseWriter, r *http.Request, opts ...core.RunOption) {
	// The route and agent name label the run's log lines, metrics and
	// refusals, as on the wrapped Handler.
	ctx, in, ok := rh.h.Accept(w, r)
	if !ok {
		return
	}
	r = r.WithContext(ctx)
	principal, _ := core.PrincipalFrom(ctx)
	after, ok := rh.cursorOf(w, r)
	if !ok {
		return
	}
	base := routeBase(r)
	if len(runURL(base, in.RunID)) > MaxRunURLLen {
		// Its URL could not be sent in a header, so it could not be
		// rejoined: refused before anything is stored.
		rh.ir.Refuse(w, r, &core.RequestError{Status: http.StatusUnprocessableEntity, Code: core.CodeInvalidInput,
			Message: "the runId is too long for the run's URL on a resumable route"})
		return
	}
	version := in.ProtocolVersion
	if after > 0 {
		// A client that has seen events of this run resumes it; it never
		// starts it again.
		rh.follow(w, r, in.RunID, after, version, principal, base, nil)
		return
	}

	run, err := rh.h.NewRun(ctx, in, opts...)
	if err != nil {
		rh.ir.Refuse(w, r, err)
		return
	}
	// The route's cap on concurrent runs (WithMaxConcurrentRuns) counts a
	// run until it ends, watched or detached.
	release, err := rh.h.Slot(w)
	if err != nil {
		if rh.joined(w, r, in.RunID, version, principal, base) {
			return
		}
		rh.ir.Refuse(w, r, err)
		return
	}
	releaseDetached, refused := rh.admitDetached(w, principal)
	if refused != nil {
		release()
		if rh.joined(w, r, in.RunID, version, principal, base) {
			return
		}
		rh.ir.Refuse(w, r, refused)
		return
	}
	releaseSlot := release
	release = func() { releaseDetached(); releaseSlot() }
	releaseGate := func() {}
	var forced <-chan struct{}
	if g := rh.set.Gate; g != nil {
		// A run's connections follow its log, which the run seals when
		// its agent returns; at the gate's forced end (its shutdown
		// deadline) the owner stores the terminal event itself.
		rg, fc, ok := g.Admit(run.Cancel)
		if !ok {
			release()
			if rh.joined(w, r, in.RunID, version, principal, base) {
				return
			}
			rh.ir.Refuse(w, r, shuttingDown())
			return
		}
		releaseGate, forced = rg, fc
	}
	meta := RunMeta{RunID: in.RunID, ThreadID: in.ThreadID, Principal: principal, Owner: rh.cfg.replica}
	lease, _, err := rh.log.Begin(ctx, meta, rh.cfg.leaseTTL)
	switch {
	case errors.Is(err, ErrRunExists):
		release()
		releaseGate()
		rh.follow(w, r, in.RunID, 0, version, principal, base, nil)
		return
	case err != nil:
		release()
		releaseGate()
		rh.set.Logger.LogAttrs(ctx, slog.LevelWarn, "resume: the run log refused a run; serving it without resume",
			slog.String("run_id", core.LogID(in.RunID)), slog.Any("error", err))
		rh.h.Serve(w, r, opts...)
		return
	}
	o := rh.launch(ctx, run, in, lease, release, releaseGate, forced)
	rh.follow(w, r, in.RunID, 0, version, principal, base, o.leave)
}

// shuttingDown is the refusal of a request that a shut gate does not
// admit.
func shuttingDown() *core.RequestError {
	return &core.RequestError{Status: http.StatusServiceUnavailable, Code: core.CodeUnavailable,
		Message: "the server is shutting down"}
}

// joined follows runID when a POST that the route could not admit (the
// concurrent-run cap, or a shutdown) only retries a run that exists: a
// join runs nothing, so it takes no slot. It reports whether it did.
func (rh *Handler[S]) joined(w http.ResponseWriter, r *http.Request, runID, version, principal, base string) bool {
	if _, err := rh.log.Status(r.Context(), runID); err != nil {
		return false
	}
	w.Header().Del("Retry-After") // set by the refusal that is not sent
	rh.follow(w, r, runID, 0, version, principal, base, nil)
	return true
}

// launch starts the owner goroutine of a run this process owns (see
// owner), which starts the run's agent. The caller is counted as the
// run's first viewer. release frees the run's slot when its agent
// returns; releaseGate frees its gate entry once its log holds its
// terminal event (or its agent returned), which forced, when closed, asks
// for at once.
func (rh *Handler[S]) launch(ctx context.Context, run *core.Runner[S], in *agui.RunAgentInput, lease Lease, release, releaseGate func(), forced <-chan struct{}) *ownedRun {
	o := &ownedRun{lease: lease, cancel: run.Cancel, viewers: 1, changed: make(chan struct{}, 1),
		gateForced: forced, force: make(chan struct{}), ended: make(chan struct{})}
	o.onEnd = releaseGate
	rh.mu.Lock()
	if rh.closed {
		run.Cancel(errClosing)
	}
	rh.runs[in.RunID] = o
	rh.mu.Unlock()

	// The run outlives the request: its context keeps the request's values
	// and drops its cancellation, which is ours to decide.
	runCtx, stop := context.WithTimeoutCause(context.WithoutCancel(ctx), rh.cfg.maxDuration, errTooLong)
	rh.wg.Add(1)
	go func() {
		defer rh.wg.Done()
		rh.own(runCtx, o, run, in.RunID, release, stop)
	}()
	return o
}

// watch counts the caller as a viewer of runID when this process runs
// it, and returns what undoes that (nil otherwise).
func (rh *Handler[S]) watch(runID string) func() {
	rh.mu.Lock()
	o := rh.runs[runID]
	rh.mu.Unlock()
	if o == nil {
		return nil
	}
	o.enter()
	return o.leave
}

// Rejoin follows the run runID from the request's Last-Event-ID header
// or ?after= parameter.
func (rh *Handler[S]) Rejoin(w http.ResponseWriter, r *http.Request, runID string) {
	r, principal, ok := rh.authenticate(w, r)
	if !ok {
		return
	}
	after, ok := rh.cursorOf(w, r)
	if !ok {
		return
	}
	rh.follow(w, r, runID, after, versionQuery(r), principal, routeBase(r), nil)
}

// Active follows the thread's active run of the request's principal from
// the request's cursor, or answers 204 No Content when it has none (another
// principal's run on the same thread id is none of its business).
func (rh *Handler[S]) Active(w http.ResponseWriter, r *http.Request, threadID string) {
	r, principal, ok := rh.authenticate(w, r)
	if !ok {
		return
	}
	after, ok := rh.cursorOf(w, r)
	if !ok {
		return
	}
	id, err := rh.log.ActiveRun(r.Context(), threadID, principal)
	if err != nil {
		rh.refuse(w, r, err, 0)
		return
	}
	if id == "" {
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusNoContent)
		return
	}
	rh.follow(w, r, id, after, versionQuery(r), principal, routeBase(r), nil)
}

// Stop stops the run runID, wherever it runs, and answers 202 Accepted.
func (rh *Handler[S]) Stop(w http.ResponseWriter, r *http.Request, runID string) {
	r, principal, ok := rh.authenticate(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	st, err := rh.log.Status(ctx, runID)
	if err != nil {
		rh.refuse(w, r, err, 0)
		return
	}
	if st.Principal != principal {
		rh.ir.Refuse(w, r, forbidden())
		return
	}
	if err := rh.log.Stop(ctx, runID); err != nil {
		rh.refuse(w, r, err, 0)
		return
	}
	rh.mu.Lock()
	o := rh.runs[runID]
	rh.mu.Unlock()
	if o != nil {
		o.cancel(errStopped)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusAccepted)
	_, _ = w.Write([]byte(`{"runId":` + strconv.Quote(runID) + `,"sealed":` + strconv.FormatBool(st.Sealed) + "}\n"))
}

// Close cancels the runs this handler runs and waits until their
// goroutines have ended, or ctx ends. When ctx ends first, the runs left
// have agents that ignore their context: each one's log gets its terminal
// RUN_ERROR (CANCELLED) at once, so that every connection following it
// ends, and the agent's goroutine is abandoned to return on its own (a
// later Close waits for it again), as [core.Gate.Shutdown] does. Close then
// waits up to [core.ForceGrace] for those logs and returns nil if every run got
// its terminal event, ctx's error otherwise. Requests after Close are
// served, but their new runs start cancelled.
func (rh *Handler[S]) Close(ctx context.Context) error {
	rh.mu.Lock()
	rh.closed = true
	for _, o := range rh.runs {
		o.cancel(errClosing)
	}
	rh.mu.Unlock()
	done := make(chan struct{})
	go func() {
		rh.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
	}
	rh.mu.Lock()
	left := make([]*ownedRun, 0, len(rh.runs))
	for _, o := range rh.runs {
		o.forceEnd()
		left = append(left, o)
	}
	rh.mu.Unlock()
	grace := time.NewTimer(core.ForceGrace)
	defer grace.Stop()
	for _, o := range left {
		select {
		case <-o.ended:
		case <-done:
			return nil
		case <-grace.C:
			return ctx.Err()
		}
	}
	return nil
}

// refuse answers a request the log could not serve.
func (rh *Handler[S]) refuse(w http.ResponseWriter, r *http.Request, err error, after uint64) {
	switch {
	case errors.Is(err, ErrRunNotFound) && after > 0:
		rh.ir.Refuse(w, r, &core.RequestError{Status: http.StatusGone, Code: CodeRunGone,
			Message: "the run's log is no longer retained"})
	case errors.Is(err, ErrRunNotFound):
		rh.ir.Refuse(w, r, &core.RequestError{Status: http.StatusNotFound, Code: CodeRunNotFound,
			Message: "no such run"})
	case errors.Is(err, ErrCursorAhead):
		rh.ir.Refuse(w, r, &core.RequestError{Status: http.StatusBadRequest, Code: CodeCursorAhead,
			Message: "the cursor is beyond the run's last event"})
	default:
		w.Header().Set("Retry-After", "1")
		rh.ir.Refuse(w, r, &core.RequestError{Status: http.StatusServiceUnavailable, Code: CodeStoreUnavailable,
			Message: "the run log is unavailable"})
	}
}

// authenticate runs the route's principal hook on r (see
// [core.InputReader.Authenticate]) and returns r carrying it and the
// principal a run of r belongs to: "" for all requests of a route without
// one.
func (rh *Handler[S]) authenticate(w http.ResponseWriter, r *http.Request) (*http.Request, string, bool) {
	r, ok := rh.ir.Authenticate(w, r)
	if !ok {
		return r, "", false
	}
	p, _ := core.PrincipalFrom(r.Context())
	return r, p, true
}

func forbidden() *core.RequestError {
	return &core.RequestError{Status: http.StatusForbidden, Code: core.CodeForbidden,
		Message: "the run belongs to another principal"}
}

// cursorOf reads the request's cursor: its Last-Event-ID header, or else
// its after query parameter; none is 0. A malformed one is answered 400.
func (rh *Handler[S]) cursorOf(w http.ResponseWriter, r *http.Request) (uint64, bool) {
	v := r.Header.Get("Last-Event-ID")
	if v == "" {
		v = r.URL.Query().Get("after")
	}
	if v == "" {
		return 0, true
	}
	n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
	if err != nil {
		rh.ir.Refuse(w, r, &core.RequestError{Status: http.StatusBadRequest, Code: core.CodeMalformedInput,
			Message: "the cursor (Last-Event-ID or after) must be an event id of this stream"})
		return 0, false
	}
	return n, true
}

// MaxRunURLLen is the longest run URL (see [Handler]) a
// resumable route sends in its Content-Location header: a run id comes
// from the client, and a header carrying megabytes of it breaks proxies
// and clients. A POST whose run's URL would be longer is refused (422
// INVALID_INPUT); a rejoin of such a run gets no Content-Location.
const MaxRunURLLen = 4096

// The query parameters that tell a GET which protocol version its client
// speaks, as a POST's protocolVersion does: a GET has no body. The run URL
// answered to a client carries its own (see location), so a client that
// rejoins where it was told keeps its dialect. downgradeQueryKey=1 asks
// for the stream of a pre-1.0 client; versionQueryKey=<v> for that of a
// client that declared v; a GET with neither is served as a 1.0 client
// is, which a newer client reads too.
const (
	downgradeQueryKey = "downgrade"
	versionQueryKey   = "protocolVersion"
)

// versionQuery returns the protocol version a GET's client declared, ""
// for a pre-1.0 one (see downgradeQueryKey).
func versionQuery(r *http.Request) string {
	q := r.URL.Query()
	if q.Get(downgradeQueryKey) == "1" {
		return ""
	}
	if v := q.Get(versionQueryKey); v != "" {
		return v
	}
	return agui.ProtocolVersion
}

// routeBase returns the escaped path of the resumable route a request was
// made on: a POST's own path, or the part before /runs/ or /threads/. The
// escaped path keeps a run id's own "/" (sent as %2F) out of the search.
func routeBase(r *http.Request) string {
	p := r.URL.EscapedPath()
	if r.Method != http.MethodPost {
		if i := strings.LastIndex(p, "/runs/"); i >= 0 {
			p = p[:i]
		} else if i := strings.LastIndex(p, "/threads/"); i >= 0 {
			p = p[:i]
		}
	}
	return strings.TrimSuffix(p, "/")
}

// runURL is the URL a run is rejoined and stopped at: the run id is one
// escaped path segment, so an id with "/", " " or "%" comes back whole.
func runURL(base, runID string) string {
	return base + "/runs/" + url.PathEscape(runID)
}

// location is the Content-Location of a run's stream for a client that
// declared version ("" before 1.0), "" when it would be over
// [MaxRunURLLen]. It names the version the client is served, not the one
// it declared: a 1.2 client rejoins as the 1.1 client it is served as.
func location(base, runID, version string) string {
	u := runURL(base, runID)
	switch {
	case version == "":
		u += "?" + downgradeQueryKey + "=1"
	case agui.ServedVersion(version) != agui.ProtocolVersion:
		u += "?" + versionQueryKey + "=" + url.QueryEscape(agui.ServedVersion(version))
	}
	if len(u) > MaxRunURLLen {
		return ""
	}
	return u
}
