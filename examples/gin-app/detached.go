package main

import (
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
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
	opts = append(slices.Clip(opts), core.WithDetach(cfg.detachGrace))
	if cfg.replica != "" {
		opts = append(opts, core.WithReplicaID(cfg.replica))
	}
	if cfg.leaseTTL > 0 {
		opts = append(opts, core.WithLeaseTTL(cfg.leaseTTL))
	}
	for _, route := range []struct {
		group gin.IRouter
		name  string
		extra []core.HandlerOption
	}{
		{agents, "detached", nil},
		{agents.Group("/users", users()), "users-detached", []core.HandlerOption{core.WithPrincipal(principal)}},
	} {
		lg, err := cfg.runLog(route.name)
		if err != nil {
			return err
		}
		rh, err := ginagui.RegisterResumable(route.group, "/detached",
			slowAgent(cfg.slowInterval, cfg.slowTotal), lg, append(slices.Clip(opts), route.extra...)...)
		if err != nil {
			return err
		}
		cfg.resumables.add(rh)
	}
	return nil
}

// memoryRunLogs returns a new in-memory log per route.
func memoryRunLogs(string) (core.RunLog, error) { return core.NewMemoryLog() }
