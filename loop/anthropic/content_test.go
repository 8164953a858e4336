package anthropic

import (
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/loop"
)

func media(t agui.PartType, st agui.SourceType, value, mimeType string) agui.ContentPart {
	return agui.ContentPart{Type: t, Source: &agui.PartSource{Type: st, Value: value, MimeType: mimeType}}
}

func TestContentPartsMapToBlocks(t *testing.T) {
	s := newServer(t, play(t, "text.sse"))
	user := &agui.UserMessage{ID: "u1", Content: agui.PartsContent(
		agui.TextPart("What is in these?"),
		media(agui.PartImage, agui.SourceData, "iVBORw0KGgo=", "image/png"),
		media(agui.PartImage, agui.SourceURL, "https://example.com/cat.jpg", ""),
		media(agui.PartImage, agui.SourceFile, "file_011CNha8iCJcU1wXNR6q4V8w", ""),
		media(agui.PartDocument, agui.SourceData, "JVBERi0xLjQ=", "application/pdf"),
		media(agui.PartDocument, agui.SourceData, "aGVsbG8gd29ybGQ=", "text/plain"),
		media(agui.PartDocument, agui.SourceURL, "https://example.com/report.pdf", ""),
		media(agui.PartDocument, agui.SourceFile, "file_011CPMxVD3fHLUhvTqtsQA5w", ""),
	)}
	if _, err := collect(t, newProvider(t, s), loop.ModelRequest{Messages: []agui.Message{user}}); err != nil {
		t.Fatal(err)
	}
	c := path(s.requests()[0], "messages", 0, "content")
	want := []struct {
		keys []any
		val  any
	}{
		{[]any{0, "text"}, "What is in these?"},
		{[]any{1, "type"}, "image"},
		{[]any{1, "source", "type"}, "base64"},
		{[]any{1, "source", "media_type"}, "image/png"},
		{[]any{1, "source", "data"}, "iVBORw0KGgo="},
		{[]any{2, "source", "type"}, "url"},
		{[]any{2, "source", "url"}, "https://example.com/cat.jpg"},
		{[]any{3, "source", "type"}, "file"},
		{[]any{3, "source", "file_id"}, "file_011CNha8iCJcU1wXNR6q4V8w"},
		{[]any{4, "type"}, "document"},
		{[]any{4, "source", "type"}, "base64"},
		{[]any{4, "source", "media_type"}, "application/pdf"},
		{[]any{5, "source", "type"}, "text"},
		{[]any{5, "source", "data"}, "hello world"},
		{[]any{6, "source", "type"}, "url"},
		{[]any{6, "source", "url"}, "https://example.com/report.pdf"},
		{[]any{7, "source", "file_id"}, "file_011CPMxVD3fHLUhvTqtsQA5w"},
	}
	for _, w := range want {
		if got := path(c, w.keys...); got != w.val {
			t.Errorf("%v: %v, want %v", w.keys, got, w.val)
		}
	}
}

// A part the API cannot take fails the run with UNSUPPORTED_CONTENT
// before any request, and is not retried.
func TestUnsupportedContentFailsRun(t *testing.T) {
	parts := map[string]agui.ContentPart{
		"audio":          media(agui.PartAudio, agui.SourceData, "UklGRg==", "audio/wav"),
		"video":          media(agui.PartVideo, agui.SourceURL, "https://example.com/v.mp4", "video/mp4"),
		"bmp image":      media(agui.PartImage, agui.SourceData, "Qk0=", "image/bmp"),
		"word document":  media(agui.PartDocument, agui.SourceData, "UEsDBA==", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
		"foreign file":   {Type: agui.PartImage, Source: &agui.PartSource{Type: agui.SourceFile, Value: "file-abc", Provider: "openai"}},
		"html url":       media(agui.PartDocument, agui.SourceURL, "https://example.com/", "text/html"),
		"bad text data":  media(agui.PartDocument, agui.SourceData, "not base64!", "text/plain"),
		"missing source": {Type: agui.PartImage},
	}
	for name, part := range parts {
		s := newServer(t)
		p, err := loop.Retry(newProvider(t, s), loop.WithAttempts(3))
		if err != nil {
			t.Fatal(err)
		}
		a, err := loop.New(p)
		if err != nil {
			t.Fatal(err)
		}
		user := &agui.UserMessage{ID: "u1", Content: agui.PartsContent(agui.TextPart("look"), part)}
		_, err = a.Execute(t.Context(), loop.Input{Messages: []agui.Message{user}})
		if agui.CodeOf(err) != loop.CodeUnsupportedContent || !strings.Contains(err.Error(), "message u1") {
			t.Errorf("%s: err %v", name, err)
		}
		if n := len(s.requests()); n != 0 {
			t.Errorf("%s: %d requests", name, n)
		}
	}
}

// Tool results may carry images, as tool_result content.
func TestToolResultParts(t *testing.T) {
	s := newServer(t, play(t, "text.sse"))
	msgs := []agui.Message{
		loop.UserText("chart?"),
		&agui.AssistantMessage{ID: "a", ToolCalls: []agui.ToolCall{{ID: "t1", Function: agui.FunctionCall{Name: "chart", Arguments: `{}`}}}},
		&agui.ToolMessage{ID: "r", ToolCallID: "t1", Content: agui.PartsContent(agui.TextPart("here"), media(agui.PartImage, agui.SourceData, "iVBORw0KGgo=", "image/png"))},
	}
	if _, err := collect(t, newProvider(t, s), loop.ModelRequest{Messages: msgs}); err != nil {
		t.Fatal(err)
	}
	r := path(s.requests()[0], "messages", 2, "content", 0, "content")
	if path(r, 0, "text") != "here" || path(r, 1, "type") != "image" || path(r, 1, "source", "media_type") != "image/png" {
		t.Fatalf("tool result %v", r)
	}
}

// From the wire: an AG-UI run input whose user message holds an image and
// a document, hosted by core, reaches the Messages API as image and
// document blocks.
func TestWireContentPartsReachRequest(t *testing.T) {
	s := newServer(t, play(t, "text.sse"))
	in, err := agui.DecodeInput([]byte(`{"threadId":"t1","runId":"r1","state":{},"tools":[],"context":[],"forwardedProps":{},
		"messages":[{"id":"u1","role":"user","content":[
			{"type":"text","text":"Describe these."},
			{"type":"image","source":{"type":"url","value":"https://example.com/cat.png","mimeType":"image/png"}},
			{"type":"document","source":{"type":"data","value":"JVBERi0xLjQ=","mimeType":"application/pdf"}}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	a, err := loop.New(newProvider(t, s))
	if err != nil {
		t.Fatal(err)
	}
	var last agui.Event
	for ev, err := range core.Run(t.Context(), core.Agent[core.NoState](a), in) {
		if err != nil {
			t.Fatal(err)
		}
		last = ev
	}
	if _, ok := last.(*agui.RunFinished); !ok {
		t.Fatalf("last event %v", last.Type())
	}
	c := path(s.requests()[0], "messages", 0, "content")
	if path(c, 0, "text") != "Describe these." || path(c, 1, "source", "url") != "https://example.com/cat.png" ||
		path(c, 2, "type") != "document" || path(c, 2, "source", "data") != "JVBERi0xLjQ=" {
		t.Fatalf("content %v", c)
	}
}

// Hosted by core, an unsupported part ends the run with RUN_ERROR and
// code UNSUPPORTED_CONTENT.
func TestWireUnsupportedContentRunError(t *testing.T) {
	s := newServer(t)
	in, err := agui.DecodeInput([]byte(`{"threadId":"t1","runId":"r1","state":{},"tools":[],"context":[],"forwardedProps":{},
		"messages":[{"id":"u1","role":"user","content":[{"type":"video","source":{"type":"url","value":"https://example.com/v.mp4"}}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	a, err := loop.New(newProvider(t, s))
	if err != nil {
		t.Fatal(err)
	}
	var last agui.Event
	for ev, err := range core.Run(t.Context(), core.Agent[core.NoState](a), in) {
		if err != nil {
			t.Fatal(err)
		}
		last = ev
	}
	re, ok := last.(*agui.RunError)
	if !ok || re.Code != string(loop.CodeUnsupportedContent) || !strings.Contains(re.Message, "video part") {
		t.Fatalf("last event %#v", last)
	}
	if len(s.requests()) != 0 {
		t.Fatal("request sent")
	}
}
