package main

import (
	"context"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// approvalID names the one interrupt the approver waits on.
const approvalID = "delete-everything"

// approverAgent is the human in the loop: the first run pauses on
// an interrupt; the next run, whose input resumes it, acts on the answer.
func approverAgent() core.Agent[core.NoState] {
	return core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		answer, ok := rc.ResumeFor(approvalID)
		if !ok {
			in := agui.NewInterrupt(approvalID, "tool_approval")
			in.Message = "Delete everything?"
			return agui.Interrupted(in), nil
		}
		reply := "Cancelled."
		if answer.Status == agui.ResumeResolved {
			reply = "Done."
		}
		if err := rc.Say(reply); err != nil {
			return agui.Outcome{}, err
		}
		return agui.Success(), nil
	})
}
