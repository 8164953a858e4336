package openai

import (
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
	"github.com/openai/openai-go/v3/packages/ssestream"
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

// An error the server sends inside the stream fails it, as openai-go's
// stream does, after the deltas before it.
func TestStreamErrorEvent(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte(`data: {"choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null}]}` + "\n\n" +
			`data: {"error":{"message":"overloaded"}}` + "\n\n"))
	})
	ds, err := collect(t, newProvider(t, s), loop.ModelRequest{Messages: []agui.Message{loop.UserText("hi")}})
	var se *ssestream.StreamError
	if !errors.As(err, &se) || !strings.Contains(se.Message, "overloaded") || len(ds) != 1 || ds[0].Text != "a" {
		t.Fatalf("%+v, %v", ds, err)
	}
}

// The direct read of a content delta agrees with encoding/json's, and
// anything it does not recognise goes to encoding/json.
func TestChunkContentReadsAsEncodingJSON(t *testing.T) {
	for _, data := range []string{
		`{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"Oslo is"},"finish_reason":null}]}`,
		`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini","service_tier":"default","system_fingerprint":"fp_1","choices":[{"index":0,"delta":{"content":"caf\u00e9 \"q\"\n"},"logprobs":null,"finish_reason":null}],"usage":null,"obfuscation":"x"}`,
		`{"id":"c","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}`,
		`{"id":"c","choices":[{"index":0,"delta":{"content":"a"},"finish_reason":"length"}]}`,
		`{"id":"c","choices":[{"index":0,"delta":{"content":"a","reasoning_content":"r"},"finish_reason":null}]}`,
		`{"id":"c","choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null}],"usage":{"prompt_tokens":3}}`,
		`{"id":"c","choices":[{"index":0,"delta":{"content":"a\"},"finish_reason":null}]}`,
		`{"id":"c","choices":[],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}`,
	} {
		var want chunk
		wantErr := json.Unmarshal([]byte(data), &want)
		// Twice with one layout: searched, then as laid out before.
		var l layout
		for range 2 {
			var got chunk
			gotErr := decodeChunk(ssestream.Event{Data: []byte(data)}, &got, &l)
			if (gotErr == nil) != (wantErr == nil) || !reflect.DeepEqual(got, want) {
				t.Errorf("%s:\n got %+v, %v\nwant %+v, %v", data, got, gotErr, want, wantErr)
			}
		}
	}
}

// A chunk laid out as the one before but for its content is read as
// encoding/json reads it, whatever its content; so is one laid out
// otherwise after it, and an error member still fails the stream.
func TestChunkLayoutReadsAsEncodingJSON(t *testing.T) {
	var l layout
	for _, data := range []string{
		`{"id":"c","choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null}]}`,
		`{"id":"c","choices":[{"index":0,"delta":{"content":"b c"},"finish_reason":null}]}`,
		`{"id":"c","choices":[{"index":0,"delta":{"content":"q\"},"finish_reason":null}]}`,
		`{"id":"c","choices":[{"index":0,"delta":{"content":"d\"e"},"finish_reason":null}]}`,
		`{"id":"c","choices":[{"index":0,"delta":{"content":"","error":"x"},"finish_reason":null}]}`,
		`{"id":"c","choices":[{"index":0,"delta":{"content":"f"},"finish_reason":null}],"error":"x"}`,
		`{"id":"c","choices":[{"index":0,"delta":{"content":"g"},"finish_reason":null}]}`,
		`{"id":"c","choices":[{"index":0,"delta":{"content":"h"},"finish_reason":null}]}{"choices":[]}`,
		`{"id":"c","choices":[{"index":0,"delta":{"content":""},"finish_reason":null}]}`,
		`{"id":"c","choices":[{"index":0,"delta":{"content":"i"},"finish_reason":null}]}`,
	} {
		var got, want chunk
		gotErr := decodeChunk(ssestream.Event{Data: []byte(data)}, &got, &l)
		wantErr := json.Unmarshal([]byte(data), &want)
		if strings.HasSuffix(data, `],"error":"x"}`) {
			var se *ssestream.StreamError
			if !errors.As(gotErr, &se) {
				t.Errorf("%s: %v, not a stream error", data, gotErr)
			}
			continue
		}
		if (gotErr == nil) != (wantErr == nil) || gotErr == nil && !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v, %v\nwant %+v, %v", data, got, gotErr, want, wantErr)
		}
	}
}

func FuzzChunkContent(f *testing.F) {
	f.Add(`Oslo is`)
	f.Add(`caf\u00e9 \"x\"`)
	f.Add(`\ud83d\ude00\\`)
	f.Fuzz(func(t *testing.T, text string) {
		chunkOf := func(text string) []byte {
			return []byte(`{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"` + text + `"},"finish_reason":null}]}`)
		}
		data := chunkOf(text)
		var want chunk
		wantErr := json.Unmarshal(data, &want)
		// Searched with a fresh layout, and read after a chunk laid out
		// the same.
		var fresh, primed layout
		var c chunk
		if err := decodeChunk(ssestream.Event{Data: chunkOf("x")}, &c, &primed); err != nil || len(primed.head) == 0 {
			t.Fatalf("the priming chunk: %v, layout %q", err, primed.head)
		}
		for _, l := range []*layout{&fresh, &primed} {
			var got chunk
			gotErr := decodeChunk(ssestream.Event{Data: data}, &got, l)
			if (gotErr == nil) != (wantErr == nil) || (gotErr == nil && !reflect.DeepEqual(got, want)) {
				t.Fatalf("%q: got %+v, %v; want %+v, %v", data, got, gotErr, want, wantErr)
			}
		}
	})
}

// A chunk read into one that held another keeps nothing of it.
func TestChunkReuseKeepsNothing(t *testing.T) {
	var (
		c chunk
		l layout
	)
	for _, data := range []string{
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"x","function":{"name":"f","arguments":"{"}}]},"finish_reason":null}]}`,
		`{"id":"c","choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null}]}`,
		`{"id":"c","choices":[{"index":0,"delta":{"content":"b"},"finish_reason":null}]}`,
		`{"id":"c","choices":[],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}`,
		`{"id":"c","choices":[{"index":0,"delta":{"content":"c"},"finish_reason":null}]}`,
	} {
		if err := decodeChunk(ssestream.Event{Data: []byte(data)}, &c, &l); err != nil {
			t.Fatal(err)
		}
		var want chunk
		if err := json.Unmarshal([]byte(data), &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(c, want) {
			t.Fatalf("%s:\n got %+v\nwant %+v", data, c, want)
		}
	}
}
