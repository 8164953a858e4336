package openai

import (
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
)

func media(t agui.PartType, st agui.SourceType, value, mimeType string) agui.ContentPart {
	return agui.ContentPart{Type: t, Source: &agui.PartSource{Type: st, Value: value, MimeType: mimeType}}
}

// get walks a decoded JSON body: string keys index objects, ints arrays.
func get(v any, keys ...any) any {
	for _, k := range keys {
		switch k := k.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			a, _ := v.([]any)
			if k >= len(a) {
				return nil
			}
			v = a[k]
		}
	}
	return v
}

func TestContentPartsMapToParts(t *testing.T) {
	s := newServer(t, play(t, "text.sse"))
	named := media(agui.PartDocument, agui.SourceData, "JVBERi0xLjQ=", "application/pdf")
	named.Metadata = map[string]any{"filename": "report.pdf"}
	user := &agui.UserMessage{ID: "u1", Content: agui.PartsContent(
		agui.TextPart("What is in these?"),
		media(agui.PartImage, agui.SourceURL, "https://example.com/cat.jpg", ""),
		media(agui.PartImage, agui.SourceData, "iVBORw0KGgo=", "image/png"),
		named,
		media(agui.PartDocument, agui.SourceData, "JVBERi0xLjQ=", "application/pdf"),
		media(agui.PartDocument, agui.SourceFile, "file-6F2ksmvXxt4VdoqmHRw6kL", ""),
		media(agui.PartAudio, agui.SourceData, "UklGRg==", "audio/wav"),
	)}
	if _, err := collect(t, newProvider(t, s), loop.ModelRequest{Messages: []agui.Message{user}}); err != nil {
		t.Fatal(err)
	}
	c := get(s.requests()[0], "messages", 0, "content")
	want := []struct {
		keys []any
		val  any
	}{
		{[]any{0, "type"}, "text"},
		{[]any{0, "text"}, "What is in these?"},
		{[]any{1, "type"}, "image_url"},
		{[]any{1, "image_url", "url"}, "https://example.com/cat.jpg"},
		{[]any{2, "image_url", "url"}, "data:image/png;base64,iVBORw0KGgo="},
		{[]any{3, "type"}, "file"},
		{[]any{3, "file", "file_data"}, "data:application/pdf;base64,JVBERi0xLjQ="},
		{[]any{3, "file", "filename"}, "report.pdf"},
		{[]any{4, "file", "filename"}, "document.pdf"},
		{[]any{5, "file", "file_id"}, "file-6F2ksmvXxt4VdoqmHRw6kL"},
		{[]any{6, "type"}, "input_audio"},
		{[]any{6, "input_audio", "format"}, "wav"},
		{[]any{6, "input_audio", "data"}, "UklGRg=="},
	}
	for _, w := range want {
		if got := get(c, w.keys...); got != w.val {
			t.Errorf("%v: %v, want %v", w.keys, got, w.val)
		}
	}
}

// A part the API cannot take fails the run with UNSUPPORTED_CONTENT
// before any request, and is not retried.
func TestUnsupportedContentFailsRun(t *testing.T) {
	cases := map[string]agui.Message{
		"video":         &agui.UserMessage{ID: "u1", Content: agui.PartsContent(media(agui.PartVideo, agui.SourceURL, "https://example.com/v.mp4", "video/mp4"))},
		"image file id": &agui.UserMessage{ID: "u1", Content: agui.PartsContent(media(agui.PartImage, agui.SourceFile, "file-abc", ""))},
		"document url":  &agui.UserMessage{ID: "u1", Content: agui.PartsContent(media(agui.PartDocument, agui.SourceURL, "https://example.com/r.pdf", ""))},
		"ogg audio":     &agui.UserMessage{ID: "u1", Content: agui.PartsContent(media(agui.PartAudio, agui.SourceData, "T2dnUw==", "audio/ogg"))},
		"foreign file":  &agui.UserMessage{ID: "u1", Content: agui.PartsContent(agui.ContentPart{Type: agui.PartDocument, Source: &agui.PartSource{Type: agui.SourceFile, Value: "file_1", Provider: "anthropic"}})},
		"no source":     &agui.UserMessage{ID: "u1", Content: agui.PartsContent(agui.ContentPart{Type: agui.PartImage})},
	}
	for name, m := range cases {
		s := newServer(t)
		p, err := loop.Retry(newProvider(t, s), loop.WithAttempts(3))
		if err != nil {
			t.Fatal(err)
		}
		a, err := loop.New(p)
		if err != nil {
			t.Fatal(err)
		}
		_, err = a.Execute(t.Context(), loop.Input{Messages: []agui.Message{m}})
		if agui.CodeOf(err) != loop.CodeUnsupportedContent || !strings.Contains(err.Error(), "openai: message u1") {
			t.Errorf("%s: err %v", name, err)
		}
		if n := len(s.requests()); n != 0 {
			t.Errorf("%s: %d requests", name, n)
		}
	}
}

// Chat completions take text tool results only.
func TestToolResultMediaUnsupported(t *testing.T) {
	s := newServer(t)
	msgs := []agui.Message{
		loop.UserText("chart?"),
		&agui.AssistantMessage{ID: "a", ToolCalls: []agui.ToolCall{{ID: "t1", Function: agui.FunctionCall{Name: "chart", Arguments: `{}`}}}},
		&agui.ToolMessage{ID: "r", ToolCallID: "t1", Content: agui.PartsContent(agui.TextPart("here"), media(agui.PartImage, agui.SourceData, "iVBORw0KGgo=", "image/png"))},
	}
	_, err := collect(t, newProvider(t, s), loop.ModelRequest{Messages: msgs})
	if agui.CodeOf(err) != loop.CodeUnsupportedContent || !strings.Contains(err.Error(), "result of call t1") {
		t.Fatalf("err %v", err)
	}
}
