package e2e

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
)

// oursGin serves the routes through ginagui.Register on a Gin engine.
func oursGin(deltas int) (http.Handler, error) {
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	for path, a := range oursAgents(deltas) {
		if err := ginagui.Register(r, path, a, quiet()); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// oursNetHTTP serves the routes with core.NewHandler on a ServeMux.
func oursNetHTTP(deltas int) (http.Handler, error) {
	mux := http.NewServeMux()
	for path, a := range oursAgents(deltas) {
		h, err := core.NewHandler(a, quiet())
		if err != nil {
			return nil, err
		}
		mux.Handle("POST "+path, h)
	}
	return mux, nil
}

// quiet drops the handler's log line per run: the peers log nothing.
func quiet() core.HandlerOption { return core.WithHandlerLogger(slog.New(slog.DiscardHandler)) }

// oursAgents maps each route to its agent. The runner adds RUN_STARTED and
// RUN_FINISHED around what each agent emits.
func oursAgents(deltas int) map[string]core.Agent[core.NoState] {
	texts, args := fixtureStrings()
	return map[string]core.Agent[core.NoState]{
		PathFixture: oursFixture(texts, args),
		PathThread: core.AgentFunc[core.NoState](func(_ context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
			return agui.Success(), oursThread(rc)
		}),
		PathIdle: core.AgentFunc[core.NoState](func(ctx context.Context, _ *core.RunContext[core.NoState]) (agui.Outcome, error) {
			<-ctx.Done()
			return agui.Outcome{}, ctx.Err()
		}),
		PathDeltas: core.AgentFunc[core.NoState](func(_ context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
			return agui.Success(), oursDeltas(rc, deltas)
		}),
	}
}

// oursFixture streams the standard fixture with the SDK's handles, so every
// event is built during the request, as an agent relaying a model does.
func oursFixture(texts, args []string) core.Agent[core.NoState] {
	return core.AgentFunc[core.NoState](func(_ context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		return agui.Success(), oursEmitFixture(rc, texts, args)
	})
}

func oursEmitFixture(rc *core.RunContext[core.NoState], texts, args []string) error {
	m, err := rc.Message()
	if err != nil {
		return err
	}
	for _, t := range texts {
		if err := m.Delta(t); err != nil {
			return err
		}
	}
	if err := m.End(); err != nil {
		return err
	}
	tc, err := rc.ToolCall(aguitest.FixtureToolName)
	if err != nil {
		return err
	}
	for _, a := range args {
		if err := tc.Args(a); err != nil {
			return err
		}
	}
	if err := tc.End(); err != nil {
		return err
	}
	if err := tc.ResultText(aguitest.FixtureToolResult); err != nil {
		return err
	}
	return rc.Emit(&agui.StateSnapshot{Snapshot: aguitest.FixtureState()})
}

// oursThread answers a thread with one message of three deltas; the
// handler has decoded and checked the whole input before.
func oursThread(rc *core.RunContext[core.NoState]) error {
	m, err := rc.Message()
	if err != nil {
		return err
	}
	for _, d := range threadDeltas {
		if err := m.Delta(d); err != nil {
			return err
		}
	}
	return m.End()
}

// oursDeltas streams one message of n one-byte deltas.
func oursDeltas(rc *core.RunContext[core.NoState], n int) error {
	m, err := rc.Message()
	if err != nil {
		return err
	}
	for range n {
		if err := m.Delta("x"); err != nil {
			return err
		}
	}
	return m.End()
}
