//go:build !agui_noverify

package agui

import "testing"

func TestVerifierToolCallOpenedByChunk(t *testing.T) {
	v := NewVerifier()
	stream := []Event{
		&RunStarted{ThreadID: "t", RunID: "r"},
		&ToolCallChunk{ToolCallID: "tc1", ToolCallName: "search", Delta: `{"q":1}`},
		&ToolCallResult{MessageID: "m1", ToolCallID: "tc1", Content: TextContent("ok")},
		&RunFinished{ThreadID: "t", RunID: "r"},
	}
	for _, ev := range stream {
		if err := v.Observe(ev); err != nil {
			t.Fatalf("%s: %v", ev.Type(), err)
		}
	}
}
