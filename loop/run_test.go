package loop

import (
	"slices"
	"testing"

	"github.com/agui-go/agui"
)

func TestNewInputFilters(t *testing.T) {
	known := UserText("old")
	transcript := []agui.Message{known, &agui.AssistantMessage{ID: "a1"}}
	fresh, sys, noID := UserText("new"), &agui.SystemMessage{ID: "s1"}, &agui.UserMessage{}
	in := []agui.Message{known, &agui.AssistantMessage{ID: "a1"}, &agui.ToolMessage{ID: "t9"}, fresh, sys, noID, &agui.ReasoningMessage{ID: "r"}}
	got := newInput(transcript, in)
	if !slices.Equal(got, []agui.Message{fresh, sys, noID}) {
		t.Fatalf("new input %v", got)
	}
}

func TestPendingTurn(t *testing.T) {
	call := func(id string) agui.ToolCall { return agui.ToolCall{ID: id} }
	am := &agui.AssistantMessage{ID: "a", ToolCalls: []agui.ToolCall{call("x"), call("y")}}
	r := &run{}
	r.cp.Messages = []agui.Message{UserText("u"), am, &agui.ToolMessage{ToolCallID: "x"}}
	if msg, first := r.pendingTurn(); msg != am || first != 1 {
		t.Fatalf("%v %d", msg, first)
	}
	r.cp.Messages = append(r.cp.Messages, &agui.ToolMessage{ToolCallID: "y"})
	if msg, _ := r.pendingTurn(); msg != nil {
		t.Fatal("answered turn reported pending")
	}
	if c := r.callByID("zz"); c.ID != "zz" {
		t.Fatalf("%+v", c)
	}
}
