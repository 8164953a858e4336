package core

import (
	"context"
	"sync"

	"github.com/agui-go/agui"
)

// ErrShuttingDown is the cause a Gate cancels in-flight runs with: a
// CANCELLED error, so each client gets a terminal RUN_ERROR whose code is
// CANCELLED.
var ErrShuttingDown error = &agui.Error{Code: agui.CodeCancelled, Message: "server shutting down"}

// Gate admits runs until it is shut down. Net/http's Server.Shutdown waits
// for open streams without cancelling them, so a server with long runs
// shares one Gate among its handlers (WithGate) and shuts it down first:
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
}

// admit registers a run whose cancel function is called on shutdown. It
// returns false once the gate is shut down; otherwise release must be
// called when the run's stream has ended.
func (g *Gate) admit(cancel func(error)) (release func(), ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return nil, false
	}
	if g.runs == nil {
		g.runs = make(map[uint64]func(error))
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
	}, true
}

// Shutdown stops admitting runs, cancels every in-flight one with
// ErrShuttingDown and waits until their streams have ended or ctx is done,
// returning ctx's error in that case. Calling it again waits again.
func (g *Gate) Shutdown(ctx context.Context) error {
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
		return ctx.Err()
	}
}

// Active returns the number of runs in flight.
func (g *Gate) Active() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.runs)
}
