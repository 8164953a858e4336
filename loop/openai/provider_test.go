package openai

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
	"github.com/openai/openai-go/v3/option"
)

// server replays recorded SSE responses, one per request in order, and
// keeps the request bodies.
type server struct {
	*httptest.Server
	mu     sync.Mutex
	bodies []map[string]any
}

// newServer serves handlers in turn: a file name under testdata is played
// as an SSE stream, flushed event by event so that the client parses it
// incrementally.
func newServer(t *testing.T, replies ...func(w http.ResponseWriter, r *http.Request)) *server {
	t.Helper()
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			t.Errorf("request body: %v", err)
		}
		s.mu.Lock()
		s.bodies = append(s.bodies, body)
		n := len(s.bodies)
		s.mu.Unlock()
		if r.URL.Path != "/v1/chat/completions" || n > len(replies) {
			http.Error(w, `{"error":{"message":"unexpected request"}}`, http.StatusBadRequest)
			return
		}
		replies[n-1](w, r)
	}))
	t.Cleanup(func() {
		s.Close()
	})
	return s
}

func (s *server) requests() []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bodies
}

// play plays testdata/name.
func play(t *testing.T, name string) func(http.ResponseWriter, *http.Request) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			w.Write(append(sc.Bytes(), '\n'))
			if sc.Text() == "" {
				w.(http.Flusher).Flush()
			}
		}
	}
}

func newProvider(t *testing.T, s *server) *Provider {
	t.Helper()
	p, err := New("gpt-4o-mini", WithClientOptions(option.WithBaseURL(s.URL+"/v1"), option.WithAPIKey("test"), option.WithHTTPClient(s.Client())))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func collect(t *testing.T, p loop.Provider, req loop.ModelRequest) ([]loop.Delta, error) {
	t.Helper()
	var out []loop.Delta
	for d, err := range p.Stream(t.Context(), req) {
		if err != nil {
			return out, err
		}
		out = append(out, d)
	}
	return out, nil
}

func TestStreamText(t *testing.T) {
	s := newServer(t, play(t, "text.sse"))
	ds, err := collect(t, newProvider(t, s), loop.ModelRequest{Instructions: "be brief", Messages: []agui.Message{loop.UserText("weather?")}})
	if err != nil {
		t.Fatal(err)
	}
	var text string
	var usage loop.Usage
	for _, d := range ds {
		text += d.Text
		if d.Usage != nil {
			usage = usage.Add(*d.Usage)
		}
	}
	if text != "It is sunny in Oslo." {
		t.Fatalf("text %q", text)
	}
	if usage != (loop.Usage{InputTokens: 58, OutputTokens: 7, CachedInputTokens: 32}) {
		t.Fatalf("usage %+v", usage)
	}
	body := s.requests()[0]
	if body["model"] != "gpt-4o-mini" || body["stream"] != true {
		t.Fatalf("body %v", body)
	}
	if so, _ := body["stream_options"].(map[string]any); so["include_usage"] != true {
		t.Fatalf("stream_options %v", body["stream_options"])
	}
	msgs := body["messages"].([]any)
	if len(msgs) != 2 || msgs[0].(map[string]any)["role"] != "system" || msgs[1].(map[string]any)["content"] != "weather?" {
		t.Fatalf("messages %v", msgs)
	}
}

func TestStreamToolCallFragments(t *testing.T) {
	s := newServer(t, play(t, "tools.sse"))
	ds, err := collect(t, newProvider(t, s), loop.ModelRequest{Messages: []agui.Message{loop.UserText("x")}})
	if err != nil {
		t.Fatal(err)
	}
	args := map[int]string{}
	ids := map[int]string{}
	frags := 0
	for _, d := range ds {
		if tc := d.ToolCall; tc != nil {
			args[tc.Index] += tc.Args
			if tc.ID != "" {
				ids[tc.Index] = tc.ID + ":" + tc.Name
			}
			if tc.Args != "" {
				frags++
			}
		}
	}
	if ids[0] != "call_Wx1:get_weather" || ids[1] != "call_Tm2:get_time" {
		t.Fatalf("ids %v", ids)
	}
	if args[0] != `{"city": "Oslo"}` || args[1] != `{"zone": "Europe/Oslo"}` || frags != 5 {
		t.Fatalf("args %v in %d fragments", args, frags)
	}
}

func TestStreamReasoning(t *testing.T) {
	s := newServer(t, play(t, "reasoning.sse"))
	ds, err := collect(t, newProvider(t, s), loop.ModelRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var reasoning, text string
	var usage loop.Usage
	for _, d := range ds {
		reasoning += d.Reasoning
		text += d.Text
		if d.Usage != nil {
			usage = *d.Usage
		}
	}
	if reasoning != "The user greets me." || text != "Hello!" || usage.ReasoningTokens != 8 {
		t.Fatalf("reasoning %q text %q usage %+v", reasoning, text, usage)
	}
}

func TestStreamHTTPError(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		w.Write([]byte(`{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`))
	})
	_, err := collect(t, newProvider(t, s), loop.ModelRequest{})
	if err == nil || !strings.Contains(err.Error(), "429") {
		t.Fatalf("err %v", err)
	}
	if len(s.requests()) != 1 {
		t.Fatalf("%d requests: the client must not retry on its own", len(s.requests()))
	}
}

func TestStreamMalformedChunk(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"}}]}\n\ndata: {not json\n\n"))
	})
	ds, err := collect(t, newProvider(t, s), loop.ModelRequest{})
	if err == nil || len(ds) != 1 {
		t.Fatalf("%d deltas, err %v", len(ds), err)
	}
}

// Cancellation reaches the HTTP request, and loop.Retry does not retry it.
func TestStreamCancelReachesRequest(t *testing.T) {
	entered := make(chan struct{})
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"thinking\"}}]}\n\n"))
		w.(http.Flusher).Flush()
		close(entered)
		<-r.Context().Done()
	})
	p, err := loop.Retry(newProvider(t, s), loop.WithAttempts(3))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error)
	go func() {
		for _, err := range p.Stream(ctx, loop.ModelRequest{}) {
			if err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	<-entered
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	if n := len(s.requests()); n != 1 {
		t.Fatalf("%d requests", n)
	}
}

func TestNewRejectsEmptyModel(t *testing.T) {
	if _, err := New(""); err == nil {
		t.Fatal("empty model accepted")
	}
}

// WithClientOptions calls add up, and option.WithMaxRetries among them
// overrides the default of no client retries.
func TestWithClientOptionsAddUp(t *testing.T) {
	fail := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte(`{"error":{"message":"down"}}`))
	}
	s := newServer(t, fail, fail)
	p, err := New("gpt-4o-mini",
		WithClientOptions(option.WithBaseURL(s.URL+"/v1"), option.WithAPIKey("test")),
		WithClientOptions(option.WithHTTPClient(s.Client()), option.WithMaxRetries(1), option.WithRequestTimeout(0)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := collect(t, p, loop.ModelRequest{}); err == nil {
		t.Fatal("no error from a failing server")
	}
	if n := len(s.requests()); n != 2 {
		t.Fatalf("%d requests, want 2 (one retry)", n)
	}
}

// A connection cut mid-stream fails the stream after the deltas that
// arrived whole.
func TestStreamBrokenConnection(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"}}]}\n\ndata: {\"choi"))
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler) // cuts the chunked body short
	})
	ds, err := collect(t, newProvider(t, s), loop.ModelRequest{})
	if err == nil || len(ds) != 1 || ds[0].Text != "ok" {
		t.Fatalf("deltas %+v, err %v", ds, err)
	}
}
