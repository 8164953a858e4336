package transformers

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// recordingSink is a MetricsSink that records what it is told.
type recordingSink struct {
	mu      sync.Mutex
	started []string
	events  map[agui.EventType]int
	ended   []RunEnd
}

func (s *recordingSink) RunStarted(run RunInfo) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.started = append(s.started, run.ThreadID+"/"+run.RunID)
}

func (s *recordingSink) Event(_ RunInfo, t agui.EventType) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.events == nil {
		s.events = map[agui.EventType]int{}
	}
	s.events[t]++
}

func (s *recordingSink) RunEnded(end RunEnd) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ended = append(s.ended, end)
}

func TestMetrics(t *testing.T) {
	tests := []struct {
		name     string
		terminal agui.Event
		want     RunEnd
	}{
		{"success", finished(), RunEnd{Outcome: "success"}},
		{"interrupt", &agui.RunFinished{Outcome: &agui.Outcome{Type: agui.OutcomeInterrupt, Interrupts: []agui.Interrupt{{ID: "i", Reason: "r"}}}}, RunEnd{Outcome: "interrupt"}},
		{"cancelled", &agui.RunFinished{Outcome: &agui.Outcome{Type: agui.OutcomeCancelled}}, RunEnd{Outcome: "cancelled"}},
		{"error", &agui.RunError{Message: "boom", Code: "AGENT_ERROR"}, RunEnd{Outcome: OutcomeError, Code: "AGENT_ERROR"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				sink := &recordingSink{}
				chain := chain{Metrics(sink)(input())}
				emit := func(agui.Event) error { return nil }
				for _, ev := range stream(evs(started()), call("tc1", "search", "{}", "x")) {
					if err := chain.Transform(ev, emit); err != nil {
						t.Fatal(err)
					}
					time.Sleep(time.Second) // fake time: the run lasts 5s
				}
				if err := chain.Transform(tt.terminal, emit); err != nil {
					t.Fatal(err)
				}
				// A RUN_ERROR after RUN_FINISHED does not end the run twice.
				if err := chain.Transform(&agui.RunError{Message: "late"}, emit); err != nil {
					t.Fatal(err)
				}
				want := tt.want
				want.RunInfo = RunInfo{ThreadID: "thread-1", RunID: "run-1"}
				want.Duration, want.Events = 5*time.Second, 6
				if len(sink.ended) != 1 || sink.ended[0] != want {
					t.Errorf("ended = %+v, want [%+v]", sink.ended, want)
				}
				if len(sink.started) != 1 || sink.started[0] != "thread-1/run-1" {
					t.Errorf("started = %v", sink.started)
				}
				if sink.events[agui.TypeToolCallStart] != 1 || sink.events[agui.TypeRunStarted] != 1 || sink.events[tt.terminal.Type()] != 1 {
					t.Errorf("events = %v", sink.events)
				}
			})
		})
	}
}

func TestMetricsNilSink(t *testing.T) {
	out := runChain(t, input(), evs(started(), finished()), Metrics(nil))
	if len(out) != 2 {
		t.Fatalf("Metrics(nil) changed the stream: %s", describeAll(out))
	}
}

func TestMetricsRunErrorFirst(t *testing.T) {
	sink := &recordingSink{}
	runChain(t, input(), evs(&agui.RunError{Message: "bad input", Code: "PROTOCOL"}), Metrics(sink))
	if len(sink.started) != 1 || len(sink.ended) != 1 || sink.ended[0].Code != "PROTOCOL" || sink.ended[0].Events != 1 {
		t.Errorf("started %v, ended %+v", sink.started, sink.ended)
	}
}

// When an inner transformer fails, the runner's final RUN_ERROR still
// reaches Metrics after it, so a gauge of runs in flight goes back down.
func TestMetricsSeesChainFailure(t *testing.T) {
	failing := core.Stateless(core.TransformerFunc(func(ev agui.Event, emit func(agui.Event) error) error {
		if ev.Type() == agui.TypeTextMessageContent {
			return errors.New("boom")
		}
		return emit(ev)
	}))
	say := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		return agui.Success(), rc.Say("hi")
	})
	sink := &recordingSink{}
	// WithTransformers lists the innermost first: failing, then Metrics.
	for _, err := range core.Run(context.Background(), say, input(), core.WithTransformers(failing, Metrics(sink))) {
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(sink.started) != 1 || len(sink.ended) != 1 {
		t.Fatalf("started %v, ended %+v; want one of each", sink.started, sink.ended)
	}
	if e := sink.ended[0]; e.Outcome != OutcomeError || e.Code != string(agui.CodeTransform) {
		t.Errorf("ended %+v, want an error with TRANSFORM_ERROR", e)
	}
}

// A consumer that leaves early still ends the run in Metrics, with
// DISCONNECTED.
func TestMetricsSeesConsumerLeave(t *testing.T) {
	say := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		return agui.Success(), rc.Say("hi")
	})
	sink := &recordingSink{}
	for range core.Run(context.Background(), say, input(), core.WithTransformers(Metrics(sink))) {
		break
	}
	if len(sink.started) != 1 || len(sink.ended) != 1 {
		t.Fatalf("started %v, ended %+v; want one of each", sink.started, sink.ended)
	}
	if e := sink.ended[0]; e.Outcome != OutcomeError || e.Code != string(agui.CodeDisconnected) {
		t.Errorf("ended %+v, want an error with DISCONNECTED", e)
	}
}

// Served by a core.Handler, each run's RunInfo carries the handler's route
// and agent names, from RunStarted to RunEnded.
func TestMetricsLabelsRouteAndAgent(t *testing.T) {
	sink := &labelSink{}
	h, err := core.NewHandler[core.NoState](core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		return agui.Success(), rc.Say("hi")
	}), core.WithRoute("/agents/hi"), core.WithAgentName("hi"), core.WithHandlerLogger(slog.New(slog.DiscardHandler)),
		core.WithTransformers(Metrics(sink)))
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodPost, "/agents/hi", strings.NewReader(`{"threadId":"t","runId":"r","protocolVersion":"1.0","messages":[]}`))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("answer %d %s", rec.Code, rec.Body.String())
	}
	want := RunInfo{ThreadID: "t", RunID: "r", Route: "/agents/hi", Agent: "hi"}
	if len(sink.runs) != 7 {
		t.Fatalf("sink saw %d calls: %+v", len(sink.runs), sink.runs)
	}
	for i, run := range sink.runs {
		if run != want {
			t.Errorf("call %d: %+v, want %+v", i, run, want)
		}
	}
}

// labelSink records the RunInfo of every call; the handler's run is the
// only one, so it needs no lock beyond the race detector's view of the
// handler joining its run.
type labelSink struct{ runs []RunInfo }

func (s *labelSink) RunStarted(run RunInfo)              { s.runs = append(s.runs, run) }
func (s *labelSink) Event(run RunInfo, _ agui.EventType) { s.runs = append(s.runs, run) }
func (s *labelSink) RunEnded(end RunEnd)                 { s.runs = append(s.runs, end.RunInfo) }
