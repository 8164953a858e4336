package main

import (
	"context"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// Draft is the state the editor's client mirrors and the agent updates.
type Draft struct {
	Revision int    `json:"revision"`
	Title    string `json:"title"`
}

// editorAgent is the draft editor: inside a step it reasons, streams
// a message and publishes the updated draft.
func editorAgent() core.Agent[Draft] {
	return core.AgentFunc[Draft](func(ctx context.Context, rc *core.RunContext[Draft]) (agui.Outcome, error) {
		step, err := rc.Step("draft")
		if err != nil {
			return agui.Outcome{}, err
		}
		defer step.End()
		if err := rc.Think("The user wants a title."); err != nil {
			return agui.Outcome{}, err
		}
		m, err := rc.Message()
		if err != nil {
			return agui.Outcome{}, err
		}
		for _, d := range []string{"Naming it ", `"Q3 plan".`} {
			if err := m.Delta(d); err != nil {
				return agui.Outcome{}, err
			}
		}
		if err := m.End(); err != nil {
			return agui.Outcome{}, err
		}
		if err := rc.UpdateState(func(d *Draft) {
			d.Revision++
			d.Title = "Q3 plan"
		}); err != nil {
			return agui.Outcome{}, err
		}
		if err := step.End(); err != nil {
			return agui.Outcome{}, err
		}
		return agui.Success(), nil
	})
}
