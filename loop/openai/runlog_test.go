package openai

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/openai/openai-go/v3/option"

	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/loop"
)

// lockedBuffer is a bytes.Buffer safe for a logger's concurrent writes.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// A provider that cannot be reached fails the run with PROVIDER_ERROR, and
// the run's log line tells the operator why: the address that refused the
// connection, next to the route and agent.
func TestProviderFailureIsInTheRunLog(t *testing.T) {
	gone := httptest.NewServer(http.NotFoundHandler())
	addr := strings.TrimPrefix(gone.URL, "http://")
	gone.Close() // nothing listens there any more
	p, err := New("gpt-test", WithClientOptions(option.WithBaseURL(gone.URL+"/v1"), option.WithAPIKey("k")))
	if err != nil {
		t.Fatal(err)
	}
	a, err := loop.New(p)
	if err != nil {
		t.Fatal(err)
	}
	var logs lockedBuffer
	h, err := core.NewHandler[core.NoState](a, core.WithRoute("/agents/chat"), core.WithAgentName("chat"),
		core.WithHandlerLogger(slog.New(slog.NewJSONHandler(&logs, nil))))
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodPost, "/agents/chat", strings.NewReader(
		`{"threadId":"t","runId":"r","protocolVersion":"1.0","messages":[{"id":"u1","role":"user","content":"hi"}]}`))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if !strings.Contains(rec.Body.String(), `"code":"PROVIDER_ERROR"`) {
		t.Fatalf("stream: %s", rec.Body.String())
	}
	for _, l := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var line map[string]any
		if err := json.Unmarshal([]byte(l), &line); err != nil {
			t.Fatal(err)
		}
		if line["msg"] != "agui run" {
			continue
		}
		if line["route"] != "/agents/chat" || line["agent"] != "chat" || line["code"] != "PROVIDER_ERROR" ||
			!strings.Contains(line["error"].(string), addr) {
			t.Fatalf("run log line lacks the cause: %v", line)
		}
		return
	}
	t.Fatalf("no run log line: %s", logs.String())
}
