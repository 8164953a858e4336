package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestRouterServesMetrics checks that the app's agent routes feed the
// Prometheus endpoint through the Metrics transformer on the /agents group.
func TestRouterServesMetrics(t *testing.T) {
	srv := newTestServer(t)
	stream(t, srv.URL+"/agents/echo", input("count me", ""))
	stream(t, srv.URL+"/agents/flaky", input("weather?", ""))

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
		"agui_runs_started_total 2",
		`agui_runs_ended_total{code="",outcome="success"} 1`,
		`agui_runs_ended_total{code="AGENT_ERROR",outcome="error"} 1`,
		`agui_events_total{type="TEXT_MESSAGE_CONTENT"}`,
		"agui_runs_in_flight 0",
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics lacks %q:\n%s", want, body)
		}
	}
}
