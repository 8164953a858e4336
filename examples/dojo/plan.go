package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
	"github.com/agui-go/agui/loop"
)

// planState is agentic_generative_ui's shared state: the steps the page
// renders as a progress list.
type planState struct {
	Steps []planStep `json:"steps"`
}

// planStep is one step; Status is "pending" or "completed".
type planStep struct {
	Description string `json:"description"`
	Status      string `json:"status"`
}

// updateStepSchema is update_plan_step's arguments: which step, and its
// new description or status.
const updateStepSchema = `{"type":"object","properties":{
"index":{"type":"integer","minimum":0,"description":"the step's index, from 0"},
"description":{"type":"string","description":"the step's new description"},
"status":{"type":"string","enum":["pending","completed"],"description":"the step's new status"}},
"required":["index"]}`

// registerPlan serves agentic_generative_ui: the model plans with
// create_plan and reports progress with update_plan_step, and each tool
// changes the shared state, which the loop sends as the smaller of
// STATE_SNAPSHOT and STATE_DELTA, so the page's progress list follows
// the agent's work.
func registerPlan(g *gin.RouterGroup, path string, provider loop.Provider, opts []core.HandlerOption) error {
	type in struct {
		Steps []string `json:"steps" jsonschema:"the plan's steps, in order"`
	}
	create, err := loop.NewTool("create_plan", "Creates a plan of steps the user sees as a progress list",
		func(ctx context.Context, in in) (planState, error) {
			var plan planState
			for _, s := range in.Steps {
				plan.Steps = append(plan.Steps, planStep{Description: s, Status: "pending"})
			}
			err := loop.UpdateState(ctx, func(st *planState) { *st = plan })
			return plan, err
		})
	if err != nil {
		return err
	}
	update, err := loop.RawTool("update_plan_step", "Updates a step of the plan: its description or status",
		json.RawMessage(updateStepSchema), func(ctx context.Context, args json.RawMessage) (string, error) {
			var in struct {
				Index       int     `json:"index"`
				Description *string `json:"description"`
				Status      *string `json:"status"`
			}
			if err := json.Unmarshal(args, &in); err != nil {
				return "", err
			}
			var bad error
			err := loop.UpdateState(ctx, func(st *planState) {
				if in.Index >= len(st.Steps) {
					bad = fmt.Errorf("no step %d: the plan has %d", in.Index, len(st.Steps))
					return
				}
				st.Steps = slices.Clone(st.Steps) // the state's copy is shallow
				if in.Description != nil {
					st.Steps[in.Index].Description = *in.Description
				}
				if in.Status != nil {
					st.Steps[in.Index].Status = *in.Status
				}
			})
			if err = cmp.Or(bad, err); err != nil {
				return "", err
			}
			return "step updated", nil
		})
	if err != nil {
		return err
	}
	a, err := loop.NewTyped[planState](provider, loop.WithTools(create, update),
		loop.WithInstructions("You plan and carry out tasks. Call create_plan with the steps, then update_plan_step as each step is done."))
	if err != nil {
		return err
	}
	return ginagui.Register(g, path, a, opts...)
}
