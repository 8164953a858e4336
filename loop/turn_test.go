package loop

import (
	"context"
	"iter"
	"testing"

	"github.com/agui-go/agui"
)

// Tool call fragments are assembled by index whatever their arrival
// order; a call without an id, or with one the thread already used, gets
// a fresh id.
func TestTurnAssemblesCalls(t *testing.T) {
	deltas := []Delta{
		{ToolCall: &ToolCallDelta{Index: 1, ID: "dup", Name: "echo", Args: `{"id":`}},
		{ToolCall: &ToolCallDelta{Index: 0, Name: "echo", Args: `{"id":"a"}`}},
		{ToolCall: &ToolCallDelta{Index: 1, Args: `"b"}`}},
		{ToolCall: &ToolCallDelta{Index: 2, ID: "dup", Name: "echo", Args: `{"id":"c"}`}},
	}
	p := ProviderFunc(func(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
		return func(yield func(Delta, error) bool) {
			if len(req.Messages) > 1 {
				yield(Delta{Text: "ok"}, nil)
				return
			}
			for _, d := range deltas {
				if !yield(d, nil) {
					return
				}
			}
		}
	})
	a := mustNew(t, p, WithTools(echoTool(t)))
	res, err := a.Execute(t.Context(), user("go"))
	if err != nil {
		t.Fatal(err)
	}
	assertResult(t, res)
	calls := res.Messages[1].(*agui.AssistantMessage).ToolCalls
	if len(calls) != 3 || calls[0].Function.Arguments != `{"id":"a"}` || calls[1].Function.Arguments != `{"id":"b"}` || calls[1].ID != "dup" {
		t.Fatalf("calls %+v", calls)
	}
	if calls[0].ID == "" || calls[2].ID == "dup" || calls[2].ID == "" {
		t.Fatalf("ids %s %s %s", calls[0].ID, calls[1].ID, calls[2].ID)
	}
	if r := results(res.Messages); r[calls[2].ID] != "echo c" {
		t.Fatalf("results %v", r)
	}
}
