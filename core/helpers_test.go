package core

import (
	"context"
	"iter"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agui-go/agui"
)

// collect ranges over a stream to its end, failing on a yielded error.
func collect(t *testing.T, seq iter.Seq2[agui.Event, error]) []agui.Event {
	t.Helper()
	var evs []agui.Event
	for ev, err := range seq {
		if err != nil {
			t.Fatalf("stream error: %v", err)
		}
		evs = append(evs, ev)
	}
	return evs
}

// run runs an agent function on a fresh input and collects its stream.
func run[S any](t *testing.T, f AgentFunc[S], opts ...RunOption) []agui.Event {
	t.Helper()
	return collect(t, Run[S](context.Background(), f, agui.NewInput("t", "r"), opts...))
}

func types(evs []agui.Event) []agui.EventType {
	out := make([]agui.EventType, len(evs))
	for i, ev := range evs {
		out[i] = ev.Type()
	}
	return out
}

func equalTypes(t *testing.T, got []agui.Event, want ...agui.EventType) {
	t.Helper()
	g := types(got)
	if len(g) != len(want) {
		t.Fatalf("event types:\n got %v\nwant %v", g, want)
	}
	for i := range g {
		if g[i] != want[i] {
			t.Fatalf("event types:\n got %v\nwant %v", g, want)
		}
	}
}

// last returns the stream's last event as T, failing when it is not one.
func last[T agui.Event](t *testing.T, evs []agui.Event) T {
	t.Helper()
	if len(evs) == 0 {
		t.Fatal("empty stream")
	}
	ev, ok := evs[len(evs)-1].(T)
	if !ok {
		t.Fatalf("last event is %s, want %T; stream %v", evs[len(evs)-1].Type(), *new(T), types(evs))
	}
	return ev
}

// noop is an agent that succeeds at once.
func noop[S any]() AgentFunc[S] {
	return func(context.Context, *RunContext[S]) (agui.Outcome, error) { return agui.Success(), nil }
}

// serveMinimal serves h one POST of the smallest valid input and returns
// the recorded response.
func serveMinimal(h http.Handler) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{"threadId":"t","runId":"r","messages":[]}`))
	req.Header.Set("Content-Type", "application/json")
	h.ServeHTTP(rec, req)
	return rec
}
