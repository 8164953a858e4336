package core_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
	"github.com/agui-go/agui/core"
)

// Over its concurrent-run cap a handler answers a JSON 429 with
// Retry-After before any stream starts, reports the refusal, and takes
// runs again once a slot is free.
func TestMaxConcurrentRunsAnswers429(t *testing.T) {
	t.Parallel()
	started, release := make(chan struct{}), make(chan struct{})
	var runs int
	a := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		runs++ // only ever one at a time: the cap is 1
		if runs == 1 {
			close(started)
			<-release
		}
		return agui.Success(), nil
	})
	var got refusals
	h := mustHandler(t, a, core.WithMaxConcurrentRuns(1, 1500*time.Millisecond), core.WithRoute("/busy"),
		core.WithRefusalHook(got.hook), core.WithHandlerLogger(slog.New(slog.DiscardHandler)))

	first := httptest.NewRecorder()
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.ServeHTTP(first, newPost(runBody("")))
	}()
	<-started

	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, newPost(runBody("")))
	var body struct{ Code string }
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatal(err)
	}
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") != "2" ||
		rec.Header().Get("Content-Type") != "application/json" || body.Code != string(core.CodeTooManyRuns) {
		t.Fatalf("over the cap: %d %v %s", rec.Code, rec.Header(), rec.Body.String())
	}
	if list := got.all(); len(list) != 1 || list[0].Status != 429 || list[0].Route != "/busy" {
		t.Fatalf("refusals = %+v", list)
	}

	close(release)
	<-done
	if evs := aguitest.ReadSSE(t, first.Body); evs[len(evs)-1].Type() != agui.TypeRunFinished {
		t.Fatalf("first run = %v", aguitest.Types(evs))
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, newPost(runBody("")))
	if evs := aguitest.ReadSSE(t, rec.Body); rec.Code != http.StatusOK || evs[len(evs)-1].Type() != agui.TypeRunFinished {
		t.Fatalf("after the slot freed: %d %v", rec.Code, aguitest.Types(evs))
	}
}

// Without a Retry-After of its own, a 429 says one second.
func TestMaxConcurrentRunsDefaultRetryAfter(t *testing.T) {
	t.Parallel()
	started, release := make(chan struct{}), make(chan struct{})
	h := mustHandler(t, core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		close(started)
		<-release
		return agui.Success(), nil
	}), core.WithMaxConcurrentRuns(1, 0), core.WithHandlerLogger(slog.New(slog.DiscardHandler)))
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.ServeHTTP(httptest.NewRecorder(), newPost(runBody("")))
	}()
	<-started
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, newPost(runBody("")))
	close(release)
	<-done
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") != "1" {
		t.Fatalf("%d %v", rec.Code, rec.Header())
	}
}

func TestMaxConcurrentRunsRejectsNegative(t *testing.T) {
	t.Parallel()
	if _, err := core.NewHandler(sayAgent("x"), core.WithMaxConcurrentRuns(-1, 0)); err == nil {
		t.Error("a negative cap was accepted")
	}
	if _, err := core.NewHandler(sayAgent("x"), core.WithMaxConcurrentRuns(1, -time.Second)); err == nil {
		t.Error("a negative Retry-After was accepted")
	}
}

// A route that takes one run at a time answers a second concurrent
// request 429 with Retry-After, before any stream.
func ExampleWithMaxConcurrentRuns() {
	started, release := make(chan struct{}), make(chan struct{})
	busy := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		close(started)
		<-release
		return agui.Success(), nil
	})
	h, err := core.NewHandler(busy, core.WithMaxConcurrentRuns(1, 5*time.Second),
		core.WithHandlerLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		panic(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.ServeHTTP(httptest.NewRecorder(), newPost(runBody("")))
	}()
	<-started

	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, newPost(runBody("")))
	fmt.Println(rec.Code, rec.Header().Get("Retry-After"), rec.Body.String())
	close(release)
	<-done
	// Output: 429 5 {"error":"too many runs on this route; retry later","code":"TOO_MANY_RUNS"}
}
