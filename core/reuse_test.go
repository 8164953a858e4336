package core

import (
	"context"
	"log/slog"
	"strconv"
	"strings"
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
	rec := serveMinimal(h)
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
		serveMinimal(h)
		check(t, kept)
	})
}
