package main

import (
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/client"
	"github.com/agui-go/agui/loop"
)

func TestPlanStepsInState(t *testing.T) {
	base := serve(t, loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{{Name: "create_plan", Args: `{"steps":["Melt butter","Bake"]}`}}},
		loop.Turn{Calls: []loop.ScriptedCall{
			{Name: "update_plan_step", Args: `{"index":1,"status":"completed","description":"Bake 25 min"}`},
			{ID: "bad", Name: "update_plan_step", Args: `{"index":5,"status":"completed"}`},
		}},
		loop.Turn{Text: "Done."},
	))
	view := runFeature(t, base, "agentic_generative_ui", input("Plan brownies"))
	plan, err := client.State[planState](view)
	if err != nil {
		t.Fatal(err)
	}
	want := []planStep{{"Melt butter", "pending"}, {"Bake 25 min", "completed"}}
	if len(plan.Steps) != 2 || plan.Steps[0] != want[0] || plan.Steps[1] != want[1] {
		t.Fatalf("steps %+v, want %+v", plan.Steps, want)
	}
	var bad string
	for _, m := range view.Messages {
		if tm, ok := m.(*agui.ToolMessage); ok && tm.ToolCallID == "bad" {
			bad = tm.Content.String()
		}
	}
	if !strings.Contains(bad, "error") {
		t.Fatalf("a step out of range: %q, want an error result", bad)
	}
}
