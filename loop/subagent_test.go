package loop_test

import (
	"context"
	"errors"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/loop"
)

// A tool opens a subagent invocation under its own call and emits into
// it; outside a tool call there is none to open.
func TestSubagent(t *testing.T) {
	if _, err := loop.Subagent(t.Context(), "x"); !errors.Is(err, loop.ErrNotInTool) {
		t.Errorf("Subagent outside a tool: %v, want ErrNotInTool", err)
	}
	ask, err := loop.NewTool("ask", "asks elsewhere", func(ctx context.Context, in struct{}) (string, error) {
		sub, err := loop.Subagent(ctx, "elsewhere")
		if err != nil {
			return "", err
		}
		if err := sub.Say("hello from elsewhere"); err != nil {
			return "", err
		}
		return "ok", sub.Finish("ok")
	})
	if err != nil {
		t.Fatal(err)
	}
	model := loop.Script(loop.Turn{Calls: []loop.ScriptedCall{{ID: "call-1", Name: "ask", Args: `{}`}}}, loop.Turn{Text: "Done."})
	a, err := loop.New(model, loop.WithTools(ask))
	if err != nil {
		t.Fatal(err)
	}
	var sub string
	attributed := 0
	for ev, err := range core.Run(t.Context(), a, agui.NewInput("t", "r")) {
		if err != nil {
			t.Fatal(err)
		}
		switch e := ev.(type) {
		case *agui.SubagentStarted:
			if e.Name != "elsewhere" || e.ParentToolCallID != "call-1" {
				t.Errorf("SUBAGENT_STARTED %+v, want elsewhere under call-1", e)
			}
			sub = e.SubagentRunID
		case *agui.TextMessageContent:
			if sub != "" && agui.SubagentOf(e) == sub {
				attributed++
			}
		case *agui.RunError:
			t.Fatalf("RUN_ERROR %s: %s", e.Code, e.Message)
		}
	}
	if sub == "" || attributed != 1 {
		t.Errorf("subagent %q with %d attributed text events, want one", sub, attributed)
	}
}
