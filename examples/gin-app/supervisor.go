package main

import (
	"context"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// supervisorAgent is the delegating agent: a planner subagent with
// a nested estimator, then the supervisor's own answer. Routes choose how
// much of the subagents' work their clients see (see router.go).
func supervisorAgent() core.Agent[core.NoState] {
	return core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		planner, err := rc.Subagent("planner")
		if err != nil {
			return agui.Outcome{}, err
		}
		if err := planner.Say("Two tasks: scope, then risks."); err != nil {
			return agui.Outcome{}, err
		}
		estimator, err := planner.Subagent("estimator")
		if err != nil {
			return agui.Outcome{}, err
		}
		if err := estimator.Say("About a day each."); err != nil {
			return agui.Outcome{}, err
		}
		if err := estimator.Finish(nil); err != nil {
			return agui.Outcome{}, err
		}
		if err := planner.Finish(map[string]any{"tasks": 2}); err != nil {
			return agui.Outcome{}, err
		}
		if err := rc.Say("Plan ready."); err != nil {
			return agui.Outcome{}, err
		}
		return agui.Success(), nil
	})
}
