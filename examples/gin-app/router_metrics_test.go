package main

import (
	"flag"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestRouterServesMetrics checks that the app's agent routes feed the
// Prometheus endpoint through the Metrics transformer on the /agents group,
// labelled with each route and agent, and that refused requests are
// counted too.
func TestRouterServesMetrics(t *testing.T) {
	cfg := defaultConfig(slog.New(slog.DiscardHandler))
	cfg.metrics = true
	r, err := newRouter(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(r)
	t.Cleanup(func() {
		srv.Close()
		http.DefaultClient.CloseIdleConnections()
	})
	stream(t, srv.URL+"/agents/echo", input("count me", ""))
	stream(t, srv.URL+"/agents/flaky", input("weather?", ""))
	refused, err := http.Post(srv.URL+"/agents/echo", "text/plain", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	refused.Body.Close()
	if refused.StatusCode != http.StatusUnsupportedMediaType {
		t.Fatalf("refusal answered %d", refused.StatusCode)
	}

	resp, err := http.Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`agui_runs_started_total{agent="echo",route="/agents/echo"} 1`,
		`agui_runs_started_total{agent="flaky",route="/agents/flaky"} 1`,
		`agui_runs_ended_total{agent="echo",code="",outcome="success",route="/agents/echo"} 1`,
		`agui_runs_ended_total{agent="flaky",code="AGENT_ERROR",outcome="error",route="/agents/flaky"} 1`,
		`agui_events_total{agent="echo",route="/agents/echo",type="TEXT_MESSAGE_CONTENT"}`,
		`agui_runs_in_flight{agent="echo",route="/agents/echo"} 0`,
		`agui_requests_refused_total{agent="echo",code="UNSUPPORTED_MEDIA_TYPE",route="/agents/echo",status="415"} 1`,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics lacks %q:\n%s", want, body)
		}
	}
}

// /metrics is opt-in: without -metrics it is not served (404), and the
// flag turns it on.
func TestMetricsAreOptIn(t *testing.T) {
	srv := newTestServer(t)
	resp, err := http.Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("GET /metrics without -metrics: %d, want 404", resp.StatusCode)
	}
	for args, want := range map[string]bool{"": false, "-metrics": true} {
		var f flags
		fs := flag.NewFlagSet("gin-app", flag.ContinueOnError)
		f.register(fs)
		if err := fs.Parse(strings.Fields(args)); err != nil {
			t.Fatal(err)
		}
		cfg := defaultConfig(slog.New(slog.DiscardHandler))
		if err := f.apply(&cfg); err != nil || cfg.metrics != want {
			t.Fatalf("%q: metrics %v, %v; want %v", args, cfg.metrics, err, want)
		}
	}
}
