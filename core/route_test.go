package core_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
	"github.com/agui-go/agui/core"
)

// newPost returns a run request for a handler called directly.
func newPost(body string) *http.Request {
	req := httptest.NewRequest(http.MethodPost, "/agents/x", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	return req
}

// logLines decodes JSON log lines.
func logLines(t *testing.T, logs string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(logs), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		out = append(out, m)
	}
	return out
}

// A provider failure reaches the client as its safe message only, while
// the run's one log line names the route, the agent and the whole error,
// the internal address included.
func TestRunLogCarriesRouteAgentAndFullError(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	h := mustHandler(t, core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		return agui.Outcome{}, &agui.Error{Code: "PROVIDER_ERROR", Message: "the model provider failed",
			Err: errors.New("dial tcp 10.1.2.3:443: connection refused")}
	}), core.WithRoute("/agents/p"), core.WithAgentName("planner"),
		core.WithHandlerLogger(slog.New(slog.NewJSONHandler(&logs, nil))))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, newPost(runBody("")))
	evs := aguitest.ReadSSE(t, rec.Body)
	re, ok := evs[len(evs)-1].(*agui.RunError)
	if !ok || re.Code != "PROVIDER_ERROR" || strings.Contains(re.Message, "10.1.2.3") {
		t.Fatalf("client saw %+v", evs[len(evs)-1])
	}
	var run map[string]any
	for _, l := range logLines(t, logs.String()) {
		if l["msg"] == "agui run" {
			run = l
		}
	}
	if run == nil || run["route"] != "/agents/p" || run["agent"] != "planner" || run["code"] != "PROVIDER_ERROR" ||
		!strings.Contains(run["error"].(string), "the model provider failed: dial tcp 10.1.2.3:443") {
		t.Fatalf("run log line = %v\nlogs: %s", run, logs.String())
	}
}

// A successful run's log line carries no error.
func TestRunLogOfSuccessHasNoError(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	h := mustHandler(t, sayAgent("hi"), core.WithAgentName("hi"), core.WithHandlerLogger(slog.New(slog.NewJSONHandler(&logs, nil))))
	h.ServeHTTP(httptest.NewRecorder(), newPost(runBody("")))
	var runs []map[string]any
	for _, l := range logLines(t, logs.String()) {
		if l["msg"] == "agui run" {
			runs = append(runs, l)
		}
	}
	if len(runs) != 1 || runs[0]["outcome"] != "success" || runs[0]["agent"] != "hi" || runs[0]["error"] != nil {
		t.Fatalf("run log lines = %v", runs)
	}
}

// Served by http.ServeMux, a run's route is the mux pattern it matched;
// agents and transformers read it with RouteFrom.
func TestRouteFromServeMuxPattern(t *testing.T) {
	t.Parallel()
	got := make(chan core.RouteInfo, 1)
	h := mustHandler(t, core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		ri, _ := core.RouteFrom(ctx)
		got <- ri
		return agui.Success(), nil
	}), core.WithAgentName("x"))
	mux := http.NewServeMux()
	mux.Handle("POST /agents/{name}", h)
	mux.ServeHTTP(httptest.NewRecorder(), newPost(runBody("")))
	if ri := <-got; ri != (core.RouteInfo{Route: "POST /agents/{name}", Agent: "x"}) {
		t.Fatalf("RouteFrom = %+v", ri)
	}
}

// The handler's own names win over a RouteInfo on the request's context,
// whose fields fill what the handler leaves empty.
func TestRouteOptionsOverrideContext(t *testing.T) {
	t.Parallel()
	got := make(chan core.RouteInfo, 1)
	h := mustHandler(t, core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		ri, _ := core.RouteFrom(ctx)
		got <- ri
		return agui.Success(), nil
	}), core.WithRoute("/mine"))
	req := newPost(runBody(""))
	req = req.WithContext(core.ContextWithRoute(req.Context(), core.RouteInfo{Route: "/adapter", Agent: "named"}))
	h.ServeHTTP(httptest.NewRecorder(), req)
	if ri := <-got; ri != (core.RouteInfo{Route: "/mine", Agent: "named"}) {
		t.Fatalf("RouteFrom = %+v", ri)
	}
}

// routeProbe is a transformer that records its run's route at StartRun.
type routeProbe struct {
	core.TransformerFunc
	got chan<- core.RouteInfo
}

func (p routeProbe) StartRun(ctx context.Context) {
	ri, _ := core.RouteFrom(ctx)
	p.got <- ri
}

// A transformer implementing RunStarter reads its run's route and agent
// before the first event.
func TestRunStarterSeesTheRoute(t *testing.T) {
	t.Parallel()
	got := make(chan core.RouteInfo, 1)
	probe := func(*agui.RunAgentInput) core.Transformer {
		return routeProbe{TransformerFunc: func(ev agui.Event, emit func(agui.Event) error) error { return emit(ev) }, got: got}
	}
	h := mustHandler(t, sayAgent("hi"), core.WithRoute("/r"), core.WithAgentName("a"),
		core.WithTransformers(probe))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, newPost(runBody("")))
	if ri := <-got; ri != (core.RouteInfo{Route: "/r", Agent: "a"}) {
		t.Fatalf("StartRun saw %+v", ri)
	}
	if evs := aguitest.ReadSSE(t, rec.Body); evs[len(evs)-1].Type() != agui.TypeRunFinished {
		t.Fatalf("stream = %v", aguitest.Types(evs))
	}
}
