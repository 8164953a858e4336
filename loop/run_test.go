package loop

import (
	"slices"
	"testing"

	"github.com/agui-go/agui/core"
)

func TestNewInputFilters(t *testing.T) {
	known := UserText("old")
	transcript := []core.Message{known, &core.AssistantMessage{ID: "a1"}}
	fresh, sys, noID := UserText("new"), &core.SystemMessage{ID: "s1"}, &core.UserMessage{}
	in := []core.Message{known, &core.AssistantMessage{ID: "a1"}, &core.ToolMessage{ID: "t9"}, fresh, sys, noID, &core.ReasoningMessage{ID: "r"}}
	got := newInput(transcript, in)
	if !slices.Equal(got, []core.Message{fresh, sys, noID}) {
		t.Fatalf("new input %v", got)
	}
}

func TestPendingTurn(t *testing.T) {
	call := func(id string) core.ToolCall { return core.ToolCall{ID: id} }
	am := &core.AssistantMessage{ID: "a", ToolCalls: []core.ToolCall{call("x"), call("y")}}
	r := &run{}
	r.cp.Messages = []core.Message{UserText("u"), am, &core.ToolMessage{ToolCallID: "x"}}
	if msg, first := r.pendingTurn(); msg != am || first != 1 {
		t.Fatalf("%v %d", msg, first)
	}
	r.cp.Messages = append(r.cp.Messages, &core.ToolMessage{ToolCallID: "y"})
	if msg, _ := r.pendingTurn(); msg != nil {
		t.Fatal("answered turn reported pending")
	}
	if c := r.callByID("zz"); c.ID != "zz" {
		t.Fatalf("%+v", c)
	}
}
