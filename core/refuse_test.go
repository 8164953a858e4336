package core_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// refusals collects what a refusal hook receives.
type refusals struct {
	mu   sync.Mutex
	list []core.Refusal
}

func (r *refusals) hook(_ context.Context, rf core.Refusal) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.list = append(r.list, rf)
}

func (r *refusals) all() []core.Refusal {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]core.Refusal(nil), r.list...)
}

// Every request refused before its stream (bad media type, invalid input,
// a state that does not decode) is logged and passed to the refusal hook
// with the route, the agent and, once decoded, the input's ids.
func TestRefusalsAreLoggedAndReported(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	var got refusals
	h := mustHandler(t, sayAgent("hi"), core.WithRoute("/agents/x"), core.WithAgentName("x"),
		core.WithRefusalHook(got.hook), core.WithHandlerLogger(slog.New(slog.NewJSONHandler(&logs, nil))))

	wrongType := newPost(runBody(""))
	wrongType.Header.Set("Content-Type", "text/plain")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, wrongType)
	if rec.Code != http.StatusUnsupportedMediaType {
		t.Fatalf("status %d", rec.Code)
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, newPost(`{"threadId":"t"}`))
	if rec.Code != http.StatusUnprocessableEntity {
		t.Fatalf("status %d", rec.Code)
	}

	list := got.all()
	if len(list) != 2 {
		t.Fatalf("refusals = %+v", list)
	}
	if rf := list[0]; rf.Route != "/agents/x" || rf.Agent != "x" || rf.Status != 415 || rf.Code != core.CodeUnsupportedMediaType || rf.Message == "" {
		t.Errorf("first refusal = %+v", rf)
	}
	if rf := list[1]; rf.Status != 422 || rf.Code != core.CodeInvalidInput {
		t.Errorf("second refusal = %+v", rf)
	}
	lines := logLines(t, logs.String())
	if len(lines) != 2 {
		t.Fatalf("log = %s", logs.String())
	}
	for i, l := range lines {
		if l["msg"] != "agui refused" || l["route"] != "/agents/x" || l["agent"] != "x" || l["status"] != float64(list[i].Status) || l["code"] != string(list[i].Code) {
			t.Errorf("log line %d = %v", i, l)
		}
	}
}

// A refusal after the input was decoded (here a state the agent's type
// cannot take) names the run.
func TestRefusalNamesTheRun(t *testing.T) {
	t.Parallel()
	type counter struct{ N int }
	var got refusals
	h := mustHandler(t, core.AgentFunc[counter](func(context.Context, *core.RunContext[counter]) (agui.Outcome, error) {
		t.Error("the agent ran on a state it cannot decode")
		return agui.Success(), nil
	}), core.WithRefusalHook(got.hook), core.WithHandlerLogger(slog.New(slog.DiscardHandler)))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, newPost(runBody(`,"state":[1,2]`)))
	if list := got.all(); rec.Code != 422 || len(list) != 1 || list[0].ThreadID != "t" || list[0].RunID != "r" || list[0].Status != 422 {
		t.Fatalf("answer %d, refusals = %+v", rec.Code, list)
	}
}

// InputReader.Refuse answers an adapter's own read error as the handler
// would, and reports it.
func TestHandlerRefuseReports(t *testing.T) {
	t.Parallel()
	var got refusals
	h := mustHandler(t, sayAgent("hi"), core.WithRoute("/a"), core.WithRefusalHook(got.hook), core.WithHandlerLogger(slog.New(slog.DiscardHandler)))
	rec := httptest.NewRecorder()
	h.InputReader().Refuse(rec, newPost(""), errors.New("nope"))
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "nope") {
		t.Fatalf("answer %d %s", rec.Code, rec.Body.String())
	}
	if list := got.all(); len(list) != 1 || list[0].Route != "/a" || list[0].Status != 422 {
		t.Fatalf("refusals = %+v", list)
	}
}
