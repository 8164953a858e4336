package main

import (
	"context"
	"errors"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// flakyAgent is the failing agent: it starts answering, then its
// backend fails, and the run ends with RUN_ERROR (AGENT_ERROR).
func flakyAgent() core.Agent[core.NoState] {
	return core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		if err := rc.Say("Looking that up."); err != nil {
			return agui.Outcome{}, err
		}
		return agui.Outcome{}, agui.AgentError(errors.New("the weather service is down"))
	})
}
