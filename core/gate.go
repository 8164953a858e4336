package core

import (
	"context"
	"sync"
	"time"

	"github.com/agui-go/agui"
)

// ErrShuttingDown is the cause a [Gate] cancels in-flight runs with: a
// CANCELLED error, so each client gets a terminal RUN_ERROR whose code is
// CANCELLED.
var ErrShuttingDown error = &agui.Error{Code: agui.CodeCancelled, Message: "server shutting down"}

// Gate admits runs until it is shut down. Net/http's Server.Shutdown waits
// for open streams without cancelling them, so a server with long runs
// shares one Gate among its handlers ([WithGate]) and shuts it down first:
//
//	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
//	defer cancel()
//	_ = gate.Shutdown(ctx) // refuse new runs (503), end in-flight ones
//	_ = srv.Shutdown(ctx)
//
// The zero Gate is ready to use. A Gate is safe for concurrent use.
type Gate struct {
	mu     sync.Mutex
	closed bool
	next   uint64
	runs   map[uint64]func(error)
	idle   chan struct{} // made by Shutdown; closed once no run is left
	// forced is closed when Shutdown's deadline passes with runs left:
	// their writers then end the streams themselves (see Shutdown).
	forced chan struct{}
	// reads are the bodies being read on the gate's routes (gate_read.go).
	reads gateReads
}

// ForceGrace is how long [Gate.Shutdown] waits, after its deadline, for the
// writers of runs that ignored cancellation to send their RUN_ERROR.
const ForceGrace = time.Second

// Admit registers a run, or a stream, whose cancel function is called on
// shutdown: a [Handler] admits each run it serves, and other transports
// (package resume) admit theirs. It returns false once the gate is shut
// down; otherwise release must be called when the stream has ended, and
// forced is closed when the shutdown deadline passes and the stream must
// end without its run.
func (g *Gate) Admit(cancel func(error)) (release func(), forced <-chan struct{}, ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return nil, nil, false
	}
	if g.runs == nil {
		g.runs = make(map[uint64]func(error))
		g.forced = make(chan struct{})
	}
	id := g.next
	g.next++
	g.runs[id] = cancel
	return func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		delete(g.runs, id)
		if g.closed && len(g.runs) == 0 && g.idle != nil {
			close(g.idle)
			g.idle = nil
		}
	}, g.forced, true
}

// Shutdown stops admitting runs, cuts the request bodies being read on
// the gate's routes (their clients get 503 at once: a stalled upload
// must not hold the server past the deadline), cancels every in-flight one with
// [ErrShuttingDown] and waits until their streams have ended or ctx is done.
// When ctx is done first, the runs left have agents that ignore their
// context: their writers are told to end each stream with RUN_ERROR
// (CANCELLED) at once, without waiting for the agent, whose goroutine is
// abandoned to return on its own. Shutdown then waits up to [ForceGrace]
// for those streams and returns nil if every one ended, ctx's error
// otherwise. Calling it again waits again.
func (g *Gate) Shutdown(ctx context.Context) error {
	g.reads.cutAll() // a stalled upload is answered 503 now, not at its read timeout
	g.mu.Lock()
	g.closed = true
	if len(g.runs) == 0 {
		g.mu.Unlock()
		return nil
	}
	if g.idle == nil {
		g.idle = make(chan struct{})
	}
	idle := g.idle
	cancels := make([]func(error), 0, len(g.runs))
	for _, c := range g.runs {
		cancels = append(cancels, c)
	}
	g.mu.Unlock()
	for _, c := range cancels {
		c(ErrShuttingDown)
	}
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
	}
	g.mu.Lock()
	select {
	case <-g.forced:
	default:
		close(g.forced)
	}
	g.mu.Unlock()
	grace := time.NewTimer(ForceGrace)
	defer grace.Stop()
	select {
	case <-idle:
		return nil
	case <-grace.C:
		return ctx.Err()
	}
}

// Active returns the number of runs in flight.
func (g *Gate) Active() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.runs)
}
