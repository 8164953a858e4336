package resume_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/resume"
)

// A resumable route keeps the wrapped Handler's operations: its
// concurrent-run cap answers 429 while a run is live, and its refusals,
// the log's own (404 RUN_NOT_FOUND) included, reach the refusal hook
// labelled with the route and agent.
func TestResumableKeepsTheHandlersCapAndRefusals(t *testing.T) {
	t.Parallel()
	started, release := make(chan struct{}), make(chan struct{})
	a := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		if rc.Input().RunID == "r1" {
			close(started)
			<-release
		}
		return agui.Success(), nil
	})
	var got refusals
	h := mustHandler(t, a, core.WithMaxConcurrentRuns(1, time.Second), core.WithRoute("/chat"),
		core.WithAgentName("chat"), core.WithRefusalHook(got.hook),
		core.WithHandlerLogger(slog.New(slog.DiscardHandler)))
	rh, err := resume.New(h, mustMemoryLog(t), resume.WithDetach(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := rh.Close(context.Background()); err != nil {
			t.Error(err)
		}
	})

	first := httptest.NewRecorder()
	done := make(chan struct{})
	go func() {
		defer close(done)
		rh.ServeHTTP(first, newPost(runRequest("t", "r1")))
	}()
	<-started

	busy := httptest.NewRecorder()
	rh.ServeHTTP(busy, newPost(runRequest("t", "r2")))
	if busy.Code != http.StatusTooManyRequests || busy.Header().Get("Retry-After") != "1" {
		t.Fatalf("over the cap: %d %v %s", busy.Code, busy.Header(), busy.Body.String())
	}
	unknown := httptest.NewRequest(http.MethodGet, "/chat/runs/nope", nil)
	unknown.SetPathValue("runId", "nope")
	rec := httptest.NewRecorder()
	rh.ServeHTTP(rec, unknown)
	if rec.Code != http.StatusNotFound {
		t.Fatalf("unknown run: %d %s", rec.Code, rec.Body.String())
	}
	list := got.all()
	if len(list) != 2 || list[0].Code != core.CodeTooManyRuns || list[1].Code != resume.CodeRunNotFound {
		t.Fatalf("refusals = %+v", list)
	}
	for _, rf := range list {
		if rf.Route != "/chat" || rf.Agent != "chat" {
			t.Fatalf("refusal without its route and agent: %+v", rf)
		}
	}

	close(release)
	<-done
	if evs := aguitest.ReadSSE(t, first.Body); len(evs) == 0 || evs[len(evs)-1].Type() != agui.TypeRunFinished {
		t.Fatalf("first run = %v", aguitest.Types(evs))
	}
}

// The route's capabilities are its handler's, declaring resumable SSE
// streams and no protobuf.
func TestResumableCapabilities(t *testing.T) {
	h := mustHandler(t, countAgent(1, nil), core.WithCapabilities(agui.Capabilities{
		Transport: &agui.TransportCapabilities{Streaming: new(true), HTTPBinary: new(true)},
	}))
	rh, err := resume.New(h, mustMemoryLog(t))
	if err != nil {
		t.Fatal(err)
	}
	tr := rh.Capabilities().Transport
	if tr == nil || tr.Streaming == nil || !*tr.Streaming || tr.Resumable == nil || !*tr.Resumable || tr.HTTPBinary == nil || *tr.HTTPBinary {
		t.Fatalf("transport capabilities %+v", tr)
	}
	if h.Capabilities().Transport.Resumable != nil {
		t.Fatal("the plain handler's capabilities were changed")
	}
}
