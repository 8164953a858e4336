package main

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestRouterSlowRouteCapsRuns checks the slow route's concurrent-run cap:
// with one run streaming, the next request gets a JSON 429 with
// Retry-After before any stream starts.
func TestRouterSlowRouteCapsRuns(t *testing.T) {
	cfg := defaultConfig(slog.New(slog.DiscardHandler))
	cfg.slowInterval, cfg.slowTotal, cfg.slowMaxRuns = time.Millisecond, time.Minute, 1
	r, err := newRouter(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(r)
	t.Cleanup(func() {
		srv.Close()
		http.DefaultClient.CloseIdleConnections()
	})

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/agents/slow", strings.NewReader(input("go", "")))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	first, err := http.DefaultClient.Do(req) // returns once the stream's headers are out
	if err != nil {
		t.Fatal(err)
	}
	defer first.Body.Close()
	if first.StatusCode != http.StatusOK {
		t.Fatalf("first run: %d", first.StatusCode)
	}

	second := do(t, srv.URL+"/agents/slow", input("go", ""))
	defer second.Body.Close()
	var body struct{ Code string }
	if err := json.NewDecoder(second.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	if second.StatusCode != http.StatusTooManyRequests || second.Header.Get("Retry-After") != "1" || body.Code != "TOO_MANY_RUNS" {
		t.Fatalf("second run: %d %v %+v", second.StatusCode, second.Header, body)
	}
	cancel() // the client leaves; the run is cancelled at once
}

// Ids over the default limit are refused before any stream on every kind
// of route: the plain echo route, the loop route (read by ginagui.Input
// ahead of its owner guard) and the frontend-tools loop.
func TestRouterRefusesLongIDs(t *testing.T) {
	srv := newTestServer(t)
	long := strings.Repeat("x", 257)
	for _, route := range []string{"/agents/echo", "/agents/loop", "/agents/frontend"} {
		for field, body := range map[string]string{
			"threadId":       `{"threadId":"` + long + `","runId":"r","protocolVersion":"1.0","messages":[]}`,
			"messages[0].id": `{"threadId":"t","runId":"r","protocolVersion":"1.0","messages":[{"id":"` + long + `","role":"user","content":"hi"}]}`,
		} {
			resp := do(t, srv.URL+route, body)
			var e struct{ Code, Field string }
			err := json.NewDecoder(resp.Body).Decode(&e)
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnprocessableEntity || err != nil || e.Code != "INVALID_INPUT" || e.Field != field {
				t.Errorf("%s, long %s: %d %+v %v", route, field, resp.StatusCode, e, err)
			}
		}
	}
}
