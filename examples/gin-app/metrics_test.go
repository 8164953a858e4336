package main

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/transformers"
)

func TestMetricsEndpoint(t *testing.T) {
	reg := prometheus.NewRegistry()
	sink, handler, err := newMetrics(reg)
	if err != nil {
		t.Fatal(err)
	}
	ok := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		return agui.Success(), rc.Say("hi")
	})
	failing := core.AgentFunc[core.NoState](func(context.Context, *core.RunContext[core.NoState]) (agui.Outcome, error) {
		return agui.Outcome{}, errors.New("boom")
	})
	for _, a := range []core.Agent[core.NoState]{ok, ok, failing} {
		for _, err := range core.Run(t.Context(), a, agui.NewInput("t", "r"), core.WithTransformers(transformers.Metrics(sink))) {
			if err != nil {
				t.Fatal(err)
			}
		}
	}

	r := gin.New()
	r.GET("/metrics", handler)
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /metrics: %d", rec.Code)
	}
	body := rec.Body.String()
	for _, want := range []string{
		// Run outside a handler, the runs have no route or agent.
		`agui_runs_started_total{agent="",route=""} 3`,
		`agui_runs_in_flight{agent="",route=""} 0`,
		`agui_events_total{agent="",route="",type="RUN_STARTED"} 3`,
		`agui_events_total{agent="",route="",type="TEXT_MESSAGE_CONTENT"} 2`,
		`agui_runs_ended_total{agent="",code="",outcome="success",route=""} 2`,
		`agui_runs_ended_total{agent="",code="AGENT_ERROR",outcome="error",route=""} 1`,
		`agui_run_duration_seconds_count{agent="",outcome="success",route=""} 2`,
	} {
		if !strings.Contains(body, want+"\n") {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	if _, _, err := newMetrics(reg); err == nil {
		t.Error("registering the collectors twice succeeded")
	}
}
