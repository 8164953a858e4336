package anthropic

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/agui-go/agui/loop"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
)

// server replays recorded responses, one per request in order, and keeps
// the request bodies.
type server struct {
	*httptest.Server
	mu     sync.Mutex
	bodies []map[string]any
}

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
		if r.URL.Path != "/v1/messages" || n > len(replies) {
			http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"unexpected request"}}`, http.StatusBadRequest)
			return
		}
		replies[n-1](w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *server) requests() []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bodies
}

// play plays testdata/name as an event stream, flushed event by event so
// that the client parses it incrementally.
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

// status answers with an API error.
func status(code int, errType string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		w.Write([]byte(`{"type":"error","error":{"type":"` + errType + `","message":"` + errType + `"}}`))
	}
}

func newProvider(t *testing.T, s *server, opts ...Option) *Provider {
	t.Helper()
	opts = append([]Option{WithClientOptions(option.WithBaseURL(s.URL), option.WithAPIKey("test"), option.WithHTTPClient(s.Client()))}, opts...)
	p, err := New("claude-sonnet-5", opts...)
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

// path walks a decoded JSON body: string keys index objects, ints arrays.
func path(v any, keys ...any) any {
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
