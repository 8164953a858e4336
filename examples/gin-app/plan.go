package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"slices"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/examples/internal/model"
	"github.com/agui-go/agui/loop"
)

// planState is /agents/plan's shared state, in the shape the AG-UI Dojo's
// agentic generative UI page renders as a progress list.
type planState struct {
	Steps []planStep `json:"steps"`
}

// planStep is one step of the plan; Status is "pending" or "completed".
type planStep struct {
	Description string `json:"description"`
	Status      string `json:"status"`
}

// planSteps are the steps the scripted model plans.
func planSteps() []string {
	return []string{"Check the weather", "Compare trains and flights", "Pick a hotel", "Write the itinerary"}
}

// updateStepSchema is update_plan_step's parameters: which step, and its
// new description or status.
const updateStepSchema = `{"type":"object","properties":{
"index":{"type":"integer","minimum":0,"description":"the step's index, from 0"},
"description":{"type":"string","description":"the step's new description"},
"status":{"type":"string","enum":["pending","completed"],"description":"the step's new status"}},
"required":["index"]}`

// newPlanAgent is the loop with the tools of agentic generative UI:
// create_plan sets the shared state's steps, all pending, and
// update_plan_step changes one (after stepDelay, the step's "work"), so
// each call ends with the state's change as the smaller of STATE_SNAPSHOT
// and STATE_DELTA and the page's progress list follows the agent. Its
// scripted model (planModel) plans planSteps and completes them one by
// one; m may choose a real model.
func newPlanAgent(m model.Flags, stepDelay time.Duration) (*loop.Typed[planState], error) {
	type createIn struct {
		Steps []string `json:"steps" jsonschema:"the plan's steps, in order"`
	}
	create, err := loop.NewTool("create_plan", "Creates a plan of steps the user sees as a progress list",
		func(ctx context.Context, in createIn) (planState, error) {
			var plan planState
			for _, s := range in.Steps {
				plan.Steps = append(plan.Steps, planStep{Description: s, Status: "pending"})
			}
			return plan, loop.UpdateState(ctx, func(st *planState) { *st = plan })
		})
	if err != nil {
		return nil, err
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
			if err := pause(ctx, stepDelay); err != nil {
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
		return nil, err
	}
	provider, err := m.New(loop.ProviderFunc(planModel))
	if err != nil {
		return nil, err
	}
	return loop.NewTyped[planState](provider, loop.WithTools(create, update),
		loop.WithInstructions("You plan and carry out tasks. Call create_plan with the steps, then update_plan_step "+
			`with status "completed" as each step is done, one at a time; then say that the plan is done.`))
}

// pause waits d, or until ctx ends.
func pause(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// planModel is the scripted model of newPlanAgent: after a user message it
// calls create_plan with planSteps, then update_plan_step for each step in
// turn (the tool results since the user message say how far it is), then
// says it is done.
func planModel(ctx context.Context, req loop.ModelRequest) iter.Seq2[loop.Delta, error] {
	return func(yield func(loop.Delta, error) bool) {
		if err := ctx.Err(); err != nil {
			yield(loop.Delta{}, err)
			return
		}
		steps := planSteps()
		done := 0
		for _, m := range req.Messages {
			switch m.(type) {
			case *agui.UserMessage:
				done = 0
			case *agui.ToolMessage:
				done++
			}
		}
		switch {
		case done == 0:
			args, err := json.Marshal(map[string]any{"steps": steps})
			if err != nil {
				yield(loop.Delta{}, err)
				return
			}
			if yield(loop.Delta{Text: "Here is the plan; I will work through it step by step."}, nil) {
				yield(loop.Delta{ToolCall: &loop.ToolCallDelta{Name: "create_plan", Args: string(args)}}, nil)
			}
		case done <= len(steps):
			args := fmt.Sprintf(`{"index":%d,"status":"completed"}`, done-1)
			yield(loop.Delta{ToolCall: &loop.ToolCallDelta{Name: "update_plan_step", Args: args}}, nil)
		default:
			yield(loop.Delta{Text: fmt.Sprintf("All %d steps are done.", len(steps))}, nil)
		}
	}
}
