package eino

import (
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
	"github.com/cloudwego/eino/schema"
)

func TestMessagesConvertsEveryRole(t *testing.T) {
	in := []agui.Message{
		&agui.SystemMessage{ID: "s", Content: "sys"},
		&agui.DeveloperMessage{ID: "d", Content: "dev"},
		&agui.UserMessage{ID: "u", Content: agui.PartsContent(
			agui.TextPart("look"),
			agui.ContentPart{Type: agui.PartImage, Source: &agui.PartSource{Type: agui.SourceURL, Value: "https://x/y.png"}},
			agui.ContentPart{Type: agui.PartDocument, Source: &agui.PartSource{Type: agui.SourceData, Value: "JVBE", MimeType: "application/pdf"}},
		)},
		&agui.AssistantMessage{ID: "a", Content: "ok", ToolCalls: []agui.ToolCall{{ID: "c1", Function: agui.FunctionCall{Name: "f", Arguments: "{}"}}}},
		&agui.ToolMessage{ID: "t", ToolCallID: "c1", Content: agui.TextContent("done")},
		&agui.ToolMessage{ID: "t2", ToolCallID: "c2", Error: "failed"},
		&agui.ReasoningMessage{ID: "r", Content: "hmm"},
		&agui.ActivityMessage{ID: "act", ActivityType: "plan"},
	}
	out, err := messages(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 6 {
		t.Fatalf("%d messages: %v", len(out), out)
	}
	if out[0].Role != schema.System || out[1].Role != schema.System || out[1].Content != "dev" {
		t.Fatalf("system %v %v", out[0], out[1])
	}
	parts := out[2].UserInputMultiContent
	if out[2].Role != schema.User || len(parts) != 3 || parts[0].Text != "look" ||
		*parts[1].Image.URL != "https://x/y.png" || *parts[2].File.Base64Data != "JVBE" || parts[2].File.MIMEType != "application/pdf" {
		t.Fatalf("user parts %+v", parts)
	}
	if a := out[3]; a.Role != schema.Assistant || a.ToolCalls[0].ID != "c1" || a.ToolCalls[0].Function.Name != "f" || *a.ToolCalls[0].Index != 0 {
		t.Fatalf("assistant %+v", a)
	}
	if out[4].Role != schema.Tool || out[4].ToolCallID != "c1" || out[4].Content != "done" || out[5].Content != "failed" {
		t.Fatalf("tool %+v %+v", out[4], out[5])
	}
}

func TestMessagesRefusesWhatEinoCannotCarry(t *testing.T) {
	for name, p := range map[string]agui.ContentPart{
		"file source": {Type: agui.PartImage, Source: &agui.PartSource{Type: agui.SourceFile, Value: "file-1"}},
		"no source":   {Type: agui.PartAudio},
		"unknown":     {Type: "hologram", Source: &agui.PartSource{Type: agui.SourceURL, Value: "x"}},
	} {
		_, err := messages([]agui.Message{&agui.UserMessage{ID: "u", Content: agui.PartsContent(p)}})
		if agui.CodeOf(err) != loop.CodeUnsupportedContent {
			t.Fatalf("%s: %v", name, err)
		}
	}
}
