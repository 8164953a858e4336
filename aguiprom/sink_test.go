package aguiprom_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguiprom"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/transformers"
)

const body = `{"threadId":"t","runId":"r","protocolVersion":"1.0","messages":[]}`

// handler serves a with the sink on both ends, as a route would.
func handler(t *testing.T, sink *aguiprom.Sink, route, name string, a core.Agent[core.NoState]) *core.Handler[core.NoState] {
	t.Helper()
	h, err := core.NewHandler(a, core.WithRoute(route), core.WithAgentName(name),
		core.WithRefusalHook(sink.Refused), core.WithHandlerLogger(slog.New(slog.DiscardHandler)),
		core.WithTransformers(transformers.Metrics(sink)))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func post(h http.Handler, contentType string) int {
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code
}

// scrape returns reg's metrics in the text exposition format.
func scrape(t *testing.T, reg *prometheus.Registry) string {
	t.Helper()
	rec := httptest.NewRecorder()
	promhttp.HandlerFor(reg, promhttp.HandlerOpts{}).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	b, err := io.ReadAll(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Runs, events, ends, durations and refusals are counted per route and
// agent, from real handlers.
func TestSinkCountsByRouteAndAgent(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	sink, err := aguiprom.New(reg)
	if err != nil {
		t.Fatal(err)
	}
	say := handler(t, sink, "/agents/say", "say", core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		return agui.Success(), rc.Say("hi")
	}))
	fail := handler(t, sink, "/agents/fail", "fail", core.AgentFunc[core.NoState](func(context.Context, *core.RunContext[core.NoState]) (agui.Outcome, error) {
		return agui.Outcome{}, errors.New("boom")
	}))
	for _, h := range []http.Handler{say, say, fail} {
		if code := post(h, "application/json"); code != http.StatusOK {
			t.Fatalf("run answered %d", code)
		}
	}
	if code := post(fail, "text/plain"); code != http.StatusUnsupportedMediaType {
		t.Fatalf("refusal answered %d", code)
	}

	got := scrape(t, reg)
	for _, want := range []string{
		`agui_runs_started_total{agent="say",route="/agents/say"} 2`,
		`agui_runs_started_total{agent="fail",route="/agents/fail"} 1`,
		`agui_runs_in_flight{agent="say",route="/agents/say"} 0`,
		`agui_events_total{agent="say",route="/agents/say",type="TEXT_MESSAGE_CONTENT"} 2`,
		`agui_runs_ended_total{agent="say",code="",outcome="success",route="/agents/say"} 2`,
		`agui_runs_ended_total{agent="fail",code="AGENT_ERROR",outcome="error",route="/agents/fail"} 1`,
		`agui_run_duration_seconds_count{agent="say",outcome="success",route="/agents/say"} 2`,
		`agui_requests_refused_total{agent="fail",code="UNSUPPORTED_MEDIA_TYPE",route="/agents/fail",status="415"} 1`,
	} {
		if !strings.Contains(got, want+"\n") {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if t.Failed() {
		t.Log(got)
	}
}

// A second sink on one registry fails and leaves the first one's
// collectors alone; its own namespace makes it fit.
func TestNewOnTakenRegistry(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	first, err := aguiprom.New(reg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := aguiprom.New(reg); err == nil {
		t.Fatal("a second sink registered the same names")
	}
	first.RunStarted(transformers.RunInfo{Route: "/a"})
	if !strings.Contains(scrape(t, reg), `agui_runs_started_total{agent="",route="/a"} 1`) {
		t.Fatal("the first sink lost its collectors")
	}
	if _, err := aguiprom.New(reg, aguiprom.WithNamespace("other")); err != nil {
		t.Fatalf("own namespace: %v", err)
	}
}

func TestNewRejectsBadOptions(t *testing.T) {
	t.Parallel()
	for name, opts := range map[string][]aguiprom.Option{
		"unsorted":  {aguiprom.WithBuckets([]float64{1, 0.5})},
		"repeated":  {aguiprom.WithBuckets([]float64{1, 1})},
		"no bounds": {aguiprom.WithBuckets(nil)},
	} {
		if _, err := aguiprom.New(prometheus.NewRegistry(), opts...); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := aguiprom.New(nil); err == nil {
		t.Error("a nil registerer was accepted")
	}
}

// WithBuckets sets the duration histogram's bounds.
func TestWithBuckets(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	sink, err := aguiprom.New(reg, aguiprom.WithBuckets([]float64{1, 10}))
	if err != nil {
		t.Fatal(err)
	}
	sink.RunEnded(transformers.RunEnd{RunInfo: transformers.RunInfo{Route: "/a"}, Outcome: "success"})
	got := scrape(t, reg)
	if !strings.Contains(got, `le="10"`) || strings.Contains(got, `le="0.05"`) {
		t.Fatalf("buckets:\n%s", got)
	}
}
