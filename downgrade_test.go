package agui

import (
	"reflect"
	"testing"
)

func TestDowngrade(t *testing.T) {
	image := ContentPart{Type: PartImage, Source: &PartSource{Type: SourceURL, Value: "http://x/i.png"}}
	file := ContentPart{Type: PartDocument, Source: &PartSource{Type: SourceFile, Value: "f-1", Provider: "openai"}}
	usage := []TokenUsage{{InputTokens: new(int64(3))}}
	tests := []struct {
		name  string
		in    func() Event // built afresh, to check that ev is not modified
		want  Event        // nil: dropped
		lossy bool
	}{
		{"subagent started dropped", func() Event { return &SubagentStarted{SubagentRunID: "s", Name: "n"} }, nil, false},
		{"subagent finished dropped", func() Event { return &SubagentFinished{SubagentRunID: "s"} }, nil, false},
		{"subagent error dropped", func() Event { return &SubagentError{SubagentRunID: "s", Message: "m"} }, nil, false},
		{"tags stay", func() Event { return &TextMessageContent{Attribution: Attribution{"s"}, MessageID: "m", Delta: "d"} },
			&TextMessageContent{Attribution: Attribution{"s"}, MessageID: "m", Delta: "d"}, false},
		{"pending tool calls removed", func() Event {
			return &RunFinished{ThreadID: "t", RunID: "r", Result: 1, Outcome: &Outcome{Type: OutcomeSuccess, PendingToolCallIDs: []string{"a"}}}
		}, &RunFinished{ThreadID: "t", RunID: "r", Result: 1, Outcome: &Outcome{Type: OutcomeSuccess}}, false},
		{"interrupt unchanged", func() Event {
			return &RunFinished{ThreadID: "t", RunID: "r", Outcome: &Outcome{Type: OutcomeInterrupt, Interrupts: []Interrupt{{ID: "i", Reason: "r", SubagentRunID: "s"}}}}
		}, &RunFinished{ThreadID: "t", RunID: "r", Outcome: &Outcome{Type: OutcomeInterrupt, Interrupts: []Interrupt{{ID: "i", Reason: "r", SubagentRunID: "s"}}}}, false},
		{"cancelled becomes RUN_ERROR", func() Event {
			return &RunFinished{Base: Base{Timestamp: 5}, ThreadID: "t", RunID: "r", Result: 1, Outcome: &Outcome{Type: OutcomeCancelled}, Usage: usage}
		}, &RunError{Base: Base{Timestamp: 5}, Message: "run cancelled", Code: "CANCELLED", Usage: usage}, true},
		{"text result unchanged", func() Event { return &ToolCallResult{MessageID: "m", ToolCallID: "c", Content: TextContent("x")} },
			&ToolCallResult{MessageID: "m", ToolCallID: "c", Content: TextContent("x")}, false},
		{"text parts flattened", func() Event {
			return &ToolCallResult{MessageID: "m", ToolCallID: "c", Content: PartsContent(TextPart("a"), TextPart("b"))}
		}, &ToolCallResult{MessageID: "m", ToolCallID: "c", Content: TextContent("a\nb")}, false},
		{"media parts dropped", func() Event {
			return &ToolCallResult{MessageID: "m", ToolCallID: "c", Content: PartsContent(TextPart("a"), image)}
		}, &ToolCallResult{MessageID: "m", ToolCallID: "c", Content: TextContent("a")}, true},
		{"snapshot rewritten", func() Event {
			return &MessagesSnapshot{Messages: []Message{
				&UserMessage{ID: "u", Content: PartsContent(TextPart("see"), file, image)},
				&AssistantMessage{ID: "a", Content: "ok"},
				&ToolMessage{ID: "t", ToolCallID: "c", Content: PartsContent(TextPart("r"))},
			}}
		}, &MessagesSnapshot{Messages: []Message{
			&UserMessage{ID: "u", Content: PartsContent(TextPart("see"), image)},
			&AssistantMessage{ID: "a", Content: "ok"},
			&ToolMessage{ID: "t", ToolCallID: "c", Content: TextContent("r")},
		}}, true},
		{"snapshot unchanged", func() Event {
			return &MessagesSnapshot{Messages: []Message{&UserMessage{ID: "u", Content: PartsContent(image)}}}
		}, &MessagesSnapshot{Messages: []Message{&UserMessage{ID: "u", Content: PartsContent(image)}}}, false},
		{"input gains tools and context", func() Event {
			return &RunStarted{ThreadID: "t", RunID: "r", ProtocolVersion: "1.0", Input: &RunAgentInput{ThreadID: "t", RunID: "r", Messages: []Message{}}}
		}, &RunStarted{ThreadID: "t", RunID: "r", ProtocolVersion: "1.0", Input: &RunAgentInput{ThreadID: "t", RunID: "r",
			Messages: []Message{}, Tools: []Tool{}, Context: []ContextItem{}}}, false},
		{"input messages rewritten", func() Event {
			return &RunStarted{ThreadID: "t", RunID: "r", Input: &RunAgentInput{ThreadID: "t", RunID: "r", ProtocolVersion: "1.0",
				Messages: []Message{&UserMessage{ID: "u", Content: PartsContent(file)}}, Tools: []Tool{{Name: "f"}}, Context: []ContextItem{}}}
		}, &RunStarted{ThreadID: "t", RunID: "r", Input: &RunAgentInput{ThreadID: "t", RunID: "r", ProtocolVersion: "1.0",
			Messages: []Message{&UserMessage{ID: "u", Content: PartsContent()}}, Tools: []Tool{{Name: "f"}}, Context: []ContextItem{}}}, true},
		{"run started without input", func() Event { return &RunStarted{ThreadID: "t", RunID: "r"} }, &RunStarted{ThreadID: "t", RunID: "r"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev := tt.in()
			got, keep := Downgrade(ev)
			if keep != (tt.want != nil) {
				t.Fatalf("keep = %v, want %v", keep, tt.want != nil)
			}
			if keep && !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Downgrade\n got %#v\nwant %#v", got, tt.want)
			}
			if !reflect.DeepEqual(ev, tt.in()) {
				t.Errorf("Downgrade modified its argument: %#v", ev)
			}
			if lossy := DowngradeLossy(ev); lossy != tt.lossy {
				t.Errorf("DowngradeLossy = %v, want %v", lossy, tt.lossy)
			}
		})
	}
}

// TestDowngradeSharesNothingItChanges checks that rewriting the copy
// Downgrade returns cannot reach the original's slices.
func TestDowngradeSharesNothingItChanges(t *testing.T) {
	orig := &MessagesSnapshot{Messages: []Message{
		&AssistantMessage{ID: "a"},
		&ToolMessage{ID: "t", Content: PartsContent(TextPart("r"))},
	}}
	got, _ := Downgrade(orig)
	got.(*MessagesSnapshot).Messages[0] = &SystemMessage{ID: "s"}
	if orig.Messages[0].Role() != RoleAssistant {
		t.Error("the downgraded snapshot shares its message slice with the original")
	}
}

func TestDowngradedInputEncodesToolsAndContext(t *testing.T) {
	ev, _ := Downgrade(&RunStarted{ThreadID: "t", RunID: "r", Input: &RunAgentInput{ThreadID: "t", RunID: "r"}})
	out, err := ev.AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"RUN_STARTED","threadId":"t","runId":"r","input":{"threadId":"t","runId":"r","messages":[],"tools":[],"context":[]}}`
	if string(out) != want {
		t.Errorf("got  %s\nwant %s", out, want)
	}
}
