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

// The direct read of a text delta agrees with encoding/json's, and
// anything it does not recognise goes to encoding/json.
func TestEventTextDeltaReadsAsEncodingJSON(t *testing.T) {
	for _, data := range []string{
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"It is"}}`,
		`{"type":"content_block_delta","index":12,"delta":{"type":"text_delta","text":"caf\u00e9 \"quoted\"\n"}}`,
		` {"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":""}}` + "\n",
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a","extra":1}}`,
		`{"type":"content_block_delta","index":01,"delta":{"type":"text_delta","text":"a"}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a\"}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"a\""}}`,
		`{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":9}}`,
	} {
		var got, want event
		gotErr := json.Unmarshal([]byte(data), &got)
		type plain event
		wantErr := json.Unmarshal([]byte(data), (*plain)(&want))
		if (gotErr == nil) != (wantErr == nil) || got != want {
			t.Errorf("%s:\n got %+v, %v\nwant %+v, %v", data, got, gotErr, want, wantErr)
		}
	}
}

func FuzzEventTextDelta(f *testing.F) {
	f.Add(`It is`)
	f.Add(`caf\u00e9 \"x\"`)
	f.Add(`\ud83d\ude00\\`)
	f.Fuzz(func(t *testing.T, text string) {
		data := []byte(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"` + text + `"}}`)
		var got, want event
		gotErr := json.Unmarshal(data, &got)
		type plain event
		wantErr := json.Unmarshal(data, (*plain)(&want))
		if (gotErr == nil) != (wantErr == nil) || (gotErr == nil && got != want) {
			t.Fatalf("%q: got %+v, %v; want %+v, %v", data, got, gotErr, want, wantErr)
		}
	})
}
