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
	// The resumable routes (detached.go): their run logs, by route name,
	// the grace period of a run nobody watches, and this replica's name
	// and lease.
	runLog      func(route string) (core.RunLog, error)
	detachGrace time.Duration
	replica     string
	leaseTTL    time.Duration
	resumables  *resumables
}

// defaultConfig is the app's configuration as served by main.
func defaultConfig(logger *slog.Logger) config {
	return config{
		logger:       logger,
		gate:         new(core.Gate),
		slowInterval: 50 * time.Millisecond,
		slowTotal:    60 * time.Second,
		runLog:       memoryRunLogs,
		detachGrace:  30 * time.Second,
		resumables:   new(resumables),
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
	private := agents.Group("/private", bearer("demo"))
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
		func() error { return registerDetached(agents, cfg, opts) },
		func() error {
			// The agent loop with a scripted model: two tools, one of
			// which needs approval (an AG-UI interrupt).
			a, err := newLoopAgent()
			if err != nil {
				return err
			}
			return ginagui.Register(agents, "/loop", a, opts...)
		},
	} {
		if err := reg(); err != nil {
			return nil, err
		}
	}
	registerPage(r, agentRoutes(r))
	return r, nil
}
