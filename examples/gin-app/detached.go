package main

import (
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
	"github.com/agui-go/agui/resume"
)

// resumables are the app's resumable routes, closed at shutdown.
type resumables struct {
	mu       sync.Mutex
	handlers []interface{ Close(context.Context) error }
}

func (rs *resumables) add(h interface{ Close(context.Context) error }) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	rs.handlers = append(rs.handlers, h)
}

// Close cancels the detached runs of every route and waits for them.
func (rs *resumables) Close(ctx context.Context) error {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	var errs []error
	for _, h := range rs.handlers {
		errs = append(errs, h.Close(ctx))
	}
	return errors.Join(errs...)
}

// registerDetached serves the slow agent on resumable routes with detach
// on: POST /agents/detached for anyone, and POST /agents/users/detached
// where a run belongs to the user who started it (see users), so bob
// can neither rejoin nor stop alice's run. Each route has its own log.
func registerDetached(agents gin.IRouter, cfg config, opts []core.HandlerOption) error {
	ropts := []resume.Option{resume.WithDetach(cfg.detachGrace)}
	if cfg.replica != "" {
		ropts = append(ropts, resume.WithReplicaID(cfg.replica))
	}
	if cfg.leaseTTL > 0 {
		ropts = append(ropts, resume.WithLeaseTTL(cfg.leaseTTL))
	}
	for _, route := range []struct {
		group gin.IRouter
		name  string
		path  string
		extra []core.HandlerOption
	}{
		{agents, "detached", "/agents/detached", nil},
		{agents.Group("/users", users()), "users-detached", "/agents/users/detached", []core.HandlerOption{core.WithPrincipal(principal)}},
	} {
		lg, err := cfg.runLog(route.name)
		if err != nil {
			return err
		}
		// The route's capabilities describe it to the chat page (about.go).
		described := append(slices.Clip(opts), describe[core.NoState](route.path))
		h, err := core.NewHandler(slowAgent(cfg.slowInterval, cfg.slowTotal), append(described, route.extra...)...)
		if err != nil {
			return err
		}
		rh, err := resume.New(h, lg, ropts...)
		if err != nil {
			return err
		}
		if err := ginagui.RegisterResumable(route.group, "/detached", rh); err != nil {
			return err
		}
		cfg.resumables.add(rh)
	}
	return nil
}

// memoryRunLogs returns a new in-memory log per route.
func memoryRunLogs(string) (resume.Log, error) { return resume.NewMemoryLog() }
