package main

import (
	"log/slog"
	"net/http"
	"slices"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/agui-go/agui/aguiotel"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/resume"
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
	runLog      func(route string) (resume.Log, error)
	detachGrace time.Duration
	replica     string
	leaseTTL    time.Duration
	resumables  *resumables
	// loop is the loop route's demo settings, loopOptions its extra
	// options (the checkpoint store, the lease); see main's flags.
	loop        loopDemo
	loopOptions []loop.Option
	// slowMaxRuns caps the slow agent's concurrent runs.
	slowMaxRuns int
	// self is the app's own base URL ("http://127.0.0.1:8080"), known
	// once it listens: /agents/remote proxies the app's editor through
	// it, and is registered only when it is set.
	self string
	// remoteURL is the agent /agents/remote serves (-remote-url); empty,
	// it is self's /agents/editor.
	remoteURL string
	// metrics serves GET /metrics (-metrics). Off by default: the
	// counters name every route and agent and their traffic, which is
	// for operators, not for whoever can reach the app.
	metrics bool
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
		loop:         loopDemo{logger: logger, stepDelay: 400 * time.Millisecond},
		slowMaxRuns:  32,
	}
}

// newRouter builds the app: one agent per route under /agents, each with
// GET <route>/capabilities. GET / is left to the chat page.
func newRouter(cfg config) (*gin.Engine, error) {
	r := gin.New()
	r.Use(gin.Recovery())
	// A caller's traceparent header joins the runs' spans to its trace
	// (see -otel).
	r.Use(func(c *gin.Context) { c.Request = aguiotel.Extract(c.Request); c.Next() })
	r.GET("/healthz", func(c *gin.Context) { c.String(http.StatusOK, "ok") })

	sink, metrics, err := newMetrics(prometheus.NewRegistry())
	if err != nil {
		return nil, err
	}
	opts := []core.HandlerOption{
		core.WithGate(cfg.gate),
		core.WithHandlerLogger(cfg.logger),
		// Refused requests (4xx, 429, 503) are counted per route too.
		core.WithRefusalHook(sink.Refused),
	}
	// named gives a route's agent its name in log lines and metric labels,
	// with the route's limits.
	named := func(name string, more ...core.HandlerOption) []core.HandlerOption {
		return append(append(slices.Clip(opts), more...), core.WithAgentName(name))
	}
	if cfg.metrics {
		r.GET("/metrics", metrics)
	}
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
	// In the order written: the search result becomes state, then the audit
	// tool's calls are dropped before they reach the client.
	tools := agents.Group("", ginagui.Transform(toState, transformers.DenyToolCalls("audit_log")))

	for _, reg := range []func() error{
		func() error { return register(agents, "/echo", echoAgent(), named("echo")...) },
		func() error { return register(private, "/echo", echoAgent(), named("echo")...) },
		func() error { return register(agents, "/editor", editorAgent(), named("editor")...) },
		func() error { return register(agents, "/flaky", flakyAgent(), named("flaky")...) },
		func() error { return register(agents, "/approver", approverAgent(), named("approver")...) },
		func() error {
			return register(agents, "/supervisor", supervisorAgent(), named("supervisor")...)
		},
		func() error {
			return register(compat, "/supervisor", supervisorAgent(), named("supervisor")...)
		},
		func() error {
			return register(hidden, "/supervisor", supervisorAgent(), named("supervisor")...)
		},
		func() error { return register(tools, "/tools", toolsAgent(), named("tools")...) },
		func() error {
			return register(agents, "/slow", slowAgent(cfg.slowInterval, cfg.slowTotal),
				// At most slowMaxRuns streams at once; more get a 429
				// with Retry-After.
				named("slow", core.WithMaxConcurrentRuns(cfg.slowMaxRuns, time.Second))...)
		},
		func() error { return registerDetached(agents, cfg, named("detached")) },
		func() error {
			if cfg.self == "" && cfg.remoteURL == "" {
				return nil
			}
			// An agent elsewhere (remote.go) behind this route's
			// guarantees; its events pass through, verified again.
			a, err := remoteAgent(cfg.self, cfg.remoteURL)
			if err != nil {
				return err
			}
			return register(agents, "/remote", a, named("remote")...)
		},
		func() error {
			// The agent loop with a scripted model: two tools, one of
			// which needs approval (an AG-UI interrupt).
			a, err := newLoopAgentWith(cfg.loop, cfg.loopOptions...)
			if err != nil {
				return err
			}
			// Its threads belong to their creator (see principal):
			// Input names the caller and decodes the request with the
			// route's limits, then the guard answers a foreign caller
			// 403 before any stream.
			// Traced: a run, its model turns and its tool calls are
			// spans (exported with -otel; a no-op otherwise).
			owned := ownedGroup(agents, opts, a)
			if err := register(owned, "/loop", aguiotel.Agent[core.NoState](a, aguiotel.WithAgentName("loop")),
				// A run gets two minutes, then ends DEADLINE_EXCEEDED.
				named("loop", core.WithPrincipal(principal), core.WithRunTimeout(2*time.Minute))...); err != nil {
				return err
			}
			// The thread API (list, rename, archive, delete, messages,
			// state; a reloaded page reads its thread back), behind the
			// same group (and so the same middleware and owner check) as
			// the agent, with the same principal hook.
			mountThreads(owned, "/loop", loop.ThreadsHandler(a, principal))
			return nil
		},
		func() error {
			// The loop on the tools of an MCP server, its threads owned
			// as the loop route's are.
			agent, threads, err := mcpAgent()
			if err != nil {
				return err
			}
			owned := ownedGroup(agents, opts, threads)
			if err := register(owned, "/mcp", agent, append(slices.Clip(opts), core.WithPrincipal(principal))...); err != nil {
				return err
			}
			mountThreads(owned, "/mcp", loop.ThreadsHandler(threads, principal))
			return nil
		},
		func() error {
			// Generative UI: an A2UI surface, and a progress list in the
			// shared state, each owned as the loop route's threads are.
			a, err := newA2UIAgent(cfg.loop.model)
			if err != nil {
				return err
			}
			if err := register(ownedGroup(agents, opts, a), "/a2ui", a, named("a2ui", core.WithPrincipal(principal))...); err != nil {
				return err
			}
			p, err := newPlanAgent(cfg.loop.model, cfg.loop.stepDelay)
			if err != nil {
				return err
			}
			return register(ownedGroup(agents, opts, p.Loop()), "/plan", p, named("plan", core.WithPrincipal(principal))...)
		},
		func() error {
			// The loop on the client's tools (frontend tools), with
			// shared state, its threads owned as the loop route's are:
			// nobody else reads a thread or answers its pending call.
			a, err := newFrontendAgent(cfg.loop.model)
			if err != nil {
				return err
			}
			owned := ownedGroup(agents, opts, a.Loop())
			if err := register(owned, "/frontend", a, named("frontend", core.WithPrincipal(principal))...); err != nil {
				return err
			}
			mountThreads(owned, "/frontend", loop.ThreadsHandler(a.Loop(), principal))
			return nil
		},
	} {
		if err := reg(); err != nil {
			return nil, err
		}
	}
	registerPage(r, agentRoutes(r))
	return r, nil
}

// mountThreads serves a loop agent's thread API (loop.ThreadsHandler) at
// route + "/threads" and below, for every method: the handler answers
// the ones it does not serve with a 405 itself.
func mountThreads(g *gin.RouterGroup, route string, h http.Handler) {
	g.Any(route+"/threads", gin.WrapH(h))
	g.Any(route+"/threads/*rest", gin.WrapH(h))
}

// ownedGroup is the group of an agent route whose threads belong to their
// creator: Input runs the principal hook and decodes the request with the
// route's limits (opts), then a's owner guard checks the thread.
func ownedGroup(agents *gin.RouterGroup, opts []core.HandlerOption, a *loop.Agent) *gin.RouterGroup {
	return agents.Group("", ginagui.Input(append(slices.Clip(opts), core.WithPrincipal(principal))...), ownerGuard(a))
}
