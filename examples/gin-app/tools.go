package main

import (
	"context"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// toolsAgent calls two tools: "search", whose result the route writes into
// the client's state, and "audit_log", an internal call the route hides
// from the client (see router.go). Hiding a call does not stop it running.
func toolsAgent() core.Agent[core.NoState] {
	return core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		search, err := rc.ToolCall("search")
		if err != nil {
			return agui.Outcome{}, err
		}
		if err := search.Args(`{"query":"quarterly plan"}`); err != nil {
			return agui.Outcome{}, err
		}
		if err := search.Result(agui.TextContent(`{"hits":["Q3 plan","Q4 plan"]}`)); err != nil {
			return agui.Outcome{}, err
		}
		audit, err := rc.ToolCall("audit_log")
		if err != nil {
			return agui.Outcome{}, err
		}
		if err := audit.Args(`{"event":"search"}`); err != nil {
			return agui.Outcome{}, err
		}
		if err := audit.Result(agui.TextContent("logged")); err != nil {
			return agui.Outcome{}, err
		}
		if err := rc.Say("Found 2 plans."); err != nil {
			return agui.Outcome{}, err
		}
		return agui.Success(), nil
	})
}
