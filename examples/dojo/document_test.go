package main

import (
	"encoding/json"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/client"
	"github.com/agui-go/agui/loop"
)

// pageTools are the page's two frontend tools on predictive_state_updates.
func pageTools() []agui.Tool {
	return []agui.Tool{
		{Name: confirmTool, Description: "Confirm the changes", Parameters: json.RawMessage(`{"type":"object","properties":{}}`)},
		{Name: "write_document", Description: "Write a document", Parameters: json.RawMessage(`{"type":"object","properties":{"document":{"type":"string"}},"required":["document"]}`)},
	}
}

func TestDocumentThenConfirm(t *testing.T) {
	script := loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{{ID: "w", Name: writeTool, Args: `{"document":"Once upon a time, a dragon."}`}}},
		loop.Turn{Text: "Kept."},
	)
	base := serve(t, script)
	view := runFeature(t, base, "predictive_state_updates", input("A story", pageTools()...))
	st, err := client.State[documentState](view)
	if err != nil {
		t.Fatal(err)
	}
	if st.Document != "Once upon a time, a dragon." {
		t.Fatalf("document %q", st.Document)
	}
	last := lastAssistant(t, view)
	if len(last.ToolCalls) != 1 || last.ToolCalls[0].Function.Name != confirmTool {
		t.Fatalf("last assistant message %+v: want the pending %s call", last, confirmTool)
	}
	if script.Calls() != 1 {
		t.Fatalf("the model was asked %d times: the confirmation is not the model's", script.Calls())
	}

	// Without the page's confirm_changes the model goes on.
	view = runFeature(t, serve(t, loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{{Name: writeTool, Args: `{"document":"x"}`}}},
		loop.Turn{Text: "Kept."},
	)), "predictive_state_updates", input("A story"))
	if got := lastAssistant(t, view).Content; got != "Kept." {
		t.Fatalf("answer %q", got)
	}
}

func TestAfterResultOf(t *testing.T) {
	call := func(id, name string) *agui.AssistantMessage {
		return &agui.AssistantMessage{ID: "a-" + id, ToolCalls: []agui.ToolCall{{ID: id, Function: agui.FunctionCall{Name: name}}}}
	}
	result := func(id string) *agui.ToolMessage { return &agui.ToolMessage{ID: "t-" + id, ToolCallID: id} }
	for _, tc := range []struct {
		name string
		msgs []agui.Message
		want bool
	}{
		{"empty", nil, false},
		{"the tool's result last", []agui.Message{call("1", writeTool), result("1")}, true},
		{"another tool's result last", []agui.Message{call("1", writeTool), result("1"), call("2", confirmTool), result("2")}, false},
		{"a user message last", []agui.Message{call("1", writeTool), result("1"), &agui.UserMessage{ID: "u"}}, false},
		{"a result of no known call", []agui.Message{result("9")}, false},
	} {
		if got := afterResultOf(tc.msgs, writeTool); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
