package anthropic

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
)

// The provider sends the request as the SDK's streaming call does: to
// /v1/messages with the API key (as a bearer token, as
// option.WithAPIKey sets it) and the API version, asking for a stream.
func TestStreamSendsTheAPIKey(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "text.sse"))
	if err != nil {
		t.Fatal(err)
	}
	var auth, version, path string
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		auth, version, path = r.Header.Get("Authorization"), r.Header.Get("Anthropic-Version"), r.URL.Path
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(data)
	})
	if _, err := collect(t, newProvider(t, s), loop.ModelRequest{Messages: []agui.Message{loop.UserText("hi")}}); err != nil {
		t.Fatal(err)
	}
	if auth != "Bearer test" || version == "" || path != "/v1/messages" {
		t.Fatalf("authorization %q, anthropic-version %q, path %q", auth, version, path)
	}
	if s.requests()[0]["stream"] != true {
		t.Fatalf("body %v", s.requests()[0])
	}
}

// Members the provider does not read are skipped whatever their type.
func TestEventSkipsWhatItDoesNotRead(t *testing.T) {
	var e event
	if err := json.Unmarshal([]byte(`{"type":"content_block_delta","index":0,"extra":{"a":[1,"b"]},"delta":{"type":"text_delta","text":"hi","when":7}}`), &e); err != nil {
		t.Fatal(err)
	}
	if e.Type != "content_block_delta" || e.Delta.Text != "hi" {
		t.Fatalf("%+v", e)
	}
}
