package core

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/agui-go/agui"
)

// deltasAgent emits one message of n numbered deltas.
func deltasAgent(n int) AgentFunc[NoState] {
	return func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		m, err := rc.Message()
		if err != nil {
			return agui.Outcome{}, err
		}
		for i := range n {
			if err := m.Delta(strconv.Itoa(i) + ","); err != nil {
				return agui.Outcome{}, err
			}
		}
		return agui.Success(), m.End()
	}
}

// The handler reuses the events of text deltas once written: every delta
// still reaches the client once, in order, with its own text.
func TestHandlerReusedDeltasArriveIntact(t *testing.T) {
	const n = 5000
	h, err := NewHandler(deltasAgent(n), WithHandlerLogger(slog.New(slog.DiscardHandler)), WithQueueSize(8))
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{"threadId":"t","runId":"r","messages":[]}`))
	req.Header.Set("Content-Type", "application/json")
	h.ServeHTTP(rec, req)
	var text strings.Builder
	for ev, err := range agui.ReadSSE(rec.Body) {
		if err != nil {
			t.Fatal(err)
		}
		if c, ok := ev.(*agui.TextMessageContent); ok {
			text.WriteString(c.Delta)
		}
	}
	var want strings.Builder
	for i := range n {
		want.WriteString(strconv.Itoa(i) + ",")
	}
	if text.String() != want.String() {
		t.Errorf("the deltas' text differs from what the agent sent (%d bytes, want %d)", text.Len(), want.Len())
	}
}

// A consumer of Runner.Events, and a transformer, may keep the events
// they are given: those are never reused.
func TestKeptDeltasAreNotReused(t *testing.T) {
	const n = 500
	check := func(t *testing.T, kept []agui.Event) {
		t.Helper()
		i := 0
		for _, ev := range kept {
			if c, ok := ev.(*agui.TextMessageContent); ok {
				if want := strconv.Itoa(i) + ","; c.Delta != want {
					t.Fatalf("kept delta %d reads %q, want %q: the event was reused", i, c.Delta, want)
				}
				i++
			}
		}
		if i != n {
			t.Fatalf("kept %d deltas, want %d", i, n)
		}
	}
	t.Run("Events", func(t *testing.T) {
		var kept []agui.Event
		for ev, err := range Run[NoState](context.Background(), deltasAgent(n), agui.NewInput("t", "r")) {
			if err != nil {
				t.Fatal(err)
			}
			kept = append(kept, ev)
		}
		check(t, kept)
	})
	t.Run("transformer", func(t *testing.T) {
		var kept []agui.Event
		keep := Stateless(TransformerFunc(func(ev agui.Event, emit func(agui.Event) error) error {
			kept = append(kept, ev)
			return emit(ev)
		}))
		h, err := NewHandler(deltasAgent(n), WithHandlerLogger(slog.New(slog.DiscardHandler)), WithTransformers(keep))
		if err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{"threadId":"t","runId":"r","messages":[]}`))
		req.Header.Set("Content-Type", "application/json")
		h.ServeHTTP(rec, req)
		check(t, kept)
	})
}

// A run that reuses its deltas builds a stock of them while it streams,
// hands it to the handler's next run when it ends, and drops it when its
// stream goes quiet (trim).
func TestReuseStockIsTrimmedAndPassedOn(t *testing.T) {
	const n = 300
	release := make(chan struct{})
	agent := AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		m, err := rc.Message()
		if err != nil {
			return agui.Outcome{}, err
		}
		for i := range n {
			if err := m.Delta(strconv.Itoa(i)); err != nil {
				return agui.Outcome{}, err
			}
		}
		<-release
		return agui.Success(), m.End()
	})
	var pool sync.Pool
	start := func() (*driver, *int) {
		r, err := NewRunner[NoState](agent, agui.NewInput("t", "r"))
		if err != nil {
			t.Fatal(err)
		}
		r.opts.scratch = &pool
		delivered := new(int)
		q, err := r.begin(context.Background(), func(agui.Event) bool { *delivered++; return true })
		if err != nil {
			t.Fatal(err)
		}
		return q.(*driver), delivered
	}
	stock := func(d *driver) int {
		d.s.qmu.Lock()
		defer d.s.qmu.Unlock()
		return len(d.s.free) + len(d.freed)
	}

	d, delivered := start()
	for *delivered < n+2 { // RUN_STARTED, TEXT_MESSAGE_START, the deltas
		<-d.ready()
		d.take()
	}
	if stock(d) == 0 {
		t.Fatalf("no reusable deltas in stock after %d", n)
	}
	d.trim()
	if got := stock(d); got != 0 || d.batch != nil {
		t.Errorf("after trim: %d deltas in stock, batch %v; want none", got, d.batch)
	}
	// Stream again, then end: the stock goes to the pool.
	close(release)
	for ready := d.ready(); ready != nil; ready = d.ready() {
		<-ready
		d.take()
	}
	d.join()
	// What close gives the pool (under the race detector a sync.Pool
	// drops some of what it is given, so the pool is not asked).
	sc := d.collectScratch()
	d.close()
	if sc == nil || len(sc.free) == 0 {
		t.Fatal("the ended run left no scratch with reusable deltas for the handler's next run")
	}
	for _, ev := range sc.free {
		if ev.MessageID != "" || ev.Delta != "" {
			t.Fatalf("a pooled delta was not cleared: %+v", ev)
		}
	}
}
