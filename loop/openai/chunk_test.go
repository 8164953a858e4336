package openai

import (
	"net/http"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
)

// The provider sends the request as openai-go's streaming call does: the
// API key as a bearer token, to chat/completions.
func TestStreamSendsTheAPIKey(t *testing.T) {
	var auth string
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		auth = r.Header.Get("Authorization")
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte(`data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n"))
	})
	ds, err := collect(t, newProvider(t, s), loop.ModelRequest{Messages: []agui.Message{loop.UserText("hi")}})
	if err != nil || len(ds) == 0 || ds[0].Text != "hi" {
		t.Fatalf("%+v, %v", ds, err)
	}
	if auth != "Bearer test" {
		t.Fatalf("Authorization %q", auth)
	}
}

// Members the provider does not read are skipped whatever their type, as
// openai-go skips them: a compatible server's oddity there does not end
// the stream. Reasoning other than a string is ignored.
func TestChunkIsLenient(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte(`data: {"id":"c","created":"soon","choices":[{"index":0,"delta":{"reasoning":{"effort":"low"},"content":"a"},"finish_reason":null}]}` + "\n\n" +
			`data: {"id":"c","choices":[{"index":0,"delta":{"reasoning_content":"think","content":"b"},"finish_reason":"length"}]}` + "\n\ndata: [DONE]\n\n"))
	})
	ds, err := collect(t, newProvider(t, s), loop.ModelRequest{Messages: []agui.Message{loop.UserText("hi")}})
	if err != nil {
		t.Fatal(err)
	}
	var text, reasoning string
	var finish loop.FinishReason
	for _, d := range ds {
		text, reasoning = text+d.Text, reasoning+d.Reasoning
		if d.Finish != "" {
			finish = d.Finish
		}
	}
	if text != "ab" || reasoning != "think" || finish != loop.FinishLength {
		t.Fatalf("text %q, reasoning %q, finish %q", text, reasoning, finish)
	}
}

// An error the server sends inside the stream fails it.
func TestStreamErrorEvent(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte(`data: {"error":{"message":"overloaded"}}` + "\n\n"))
	})
	if _, err := collect(t, newProvider(t, s), loop.ModelRequest{Messages: []agui.Message{loop.UserText("hi")}}); err == nil {
		t.Fatal("no error")
	}
}
