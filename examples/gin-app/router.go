package main

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
	"github.com/agui-go/agui/transformers"
)

// config is what the router is built from; tests shorten the slow agent.
type config struct {
	logger *slog.Logger
	// gate is shared by every agent route, so one Shutdown ends all runs.
	gate         *core.Gate
	slowInterval time.Duration
	slowTotal    time.Duration
}

// defaultConfig is the app's configuration as served by main.
func defaultConfig(logger *slog.Logger) config {
	return config{
		logger:       logger,
		gate:         new(core.Gate),
		slowInterval: 50 * time.Millisecond,
		slowTotal:    60 * time.Second,
	}
}

// newRouter builds the app: one agent per route under /agents, each with
// GET <route>/capabilities. GET / is left to the chat page.
func newRouter(cfg config) (*gin.Engine, error) {
	r := gin.New()
	r.Use(gin.Recovery())
	r.GET("/healthz", func(c *gin.Context) { c.String(http.StatusOK, "ok") })

	opts := []ginagui.Option{ginagui.WithHandlerOptions(
		core.WithGate(cfg.gate),
		core.WithHandlerLogger(cfg.logger),
	)}
	sink, metrics, err := newMetrics(prometheus.NewRegistry())
	if err != nil {
		return nil, err
	}
	r.GET("/metrics", metrics)
	// Metrics is the outermost transformer, so it counts the events after
	// every inner group's transformers have rewritten them; for a pre-1.0
	// client it also counts events the downgrade then drops.
	agents := r.Group("/agents", ginagui.Transform(transformers.Metrics(sink)))
	// Authentication stays ordinary Gin middleware on a group.
	private := agents.Group("/private", bearer(demoToken))
	// The same supervisor, shown three ways: the group's transformer
	// middleware picks how much of the subagents' work clients see.
	compat := agents.Group("/compat",
		ginagui.Transform(transformers.SubagentVisibility(transformers.VisibilityInline)))
	hidden := agents.Group("/hidden",
		ginagui.Transform(transformers.SubagentVisibility(transformers.VisibilityHidden)))
	// The tools route hides the internal audit_log call and writes the
	// search tool's result into the client's state at /search.
	toState, err := transformers.ToolResultToState(transformers.StateMapping{Tool: "search", Path: "/search"})
	if err != nil {
		return nil, err
	}
	tools := agents.Group("", ginagui.Transform(transformers.DenyToolCalls("audit_log"), toState))

	for _, reg := range []func() error{
		func() error { return ginagui.Register(agents, "/echo", echoAgent(), opts...) },
		func() error { return ginagui.Register(private, "/echo", echoAgent(), opts...) },
		func() error { return ginagui.Register(agents, "/editor", editorAgent(), opts...) },
		func() error { return ginagui.Register(agents, "/flaky", flakyAgent(), opts...) },
		func() error { return ginagui.Register(agents, "/approver", approverAgent(), opts...) },
		func() error { return ginagui.Register(agents, "/supervisor", supervisorAgent(), opts...) },
		func() error { return ginagui.Register(compat, "/supervisor", supervisorAgent(), opts...) },
		func() error { return ginagui.Register(hidden, "/supervisor", supervisorAgent(), opts...) },
		func() error { return ginagui.Register(tools, "/tools", toolsAgent(), opts...) },
		func() error {
			return ginagui.Register(agents, "/slow", slowAgent(cfg.slowInterval, cfg.slowTotal), opts...)
		},
		func() error {
			// The agent loop with a scripted model: two tools, one of
			// which needs approval (an AG-UI interrupt).
			// Its threads belong to their creator (see principal):
			// Input decodes the request with the route's limits, then
			// the guard answers a foreign caller 403 before any stream.
			a, err := newLoopAgent()
			if err != nil {
				return err
			}
			owned := agents.Group("", ginagui.Input(opts...), ownerGuard(a))
			return ginagui.Register(owned, "/loop", a, opts...)
		},
	} {
		if err := reg(); err != nil {
			return nil, err
		}
	}
	registerPage(r, agentRoutes(r))
	return r, nil
}
