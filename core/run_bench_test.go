package core

import (
	"context"
	"testing"
)

// BenchmarkRunDeltas measures the emit path end to end: verify, enqueue,
// hand over to the consumer's goroutine, per TEXT_MESSAGE_CONTENT.
func BenchmarkRunDeltas(b *testing.B) {
	agent := AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (Outcome, error) {
		m, err := rc.Message()
		if err != nil {
			return Outcome{}, err
		}
		for range b.N {
			if err := m.Delta("token "); err != nil {
				return Outcome{}, err
			}
		}
		return Success(), m.End()
	})
	b.ReportAllocs()
	b.ResetTimer()
	for ev, err := range Run[NoState](context.Background(), agent, NewInput("t", "r")) {
		if err != nil {
			b.Fatal(err)
		}
		if ev.Type() == TypeRunError {
			b.Fatal(ev)
		}
	}
}

// BenchmarkRunDeltasChain is BenchmarkRunDeltas through three pass-through
// transformers: the cost of the chain and its per-call guards.
func BenchmarkRunDeltasChain(b *testing.B) {
	agent := AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (Outcome, error) {
		m, err := rc.Message()
		if err != nil {
			return Outcome{}, err
		}
		for range b.N {
			if err := m.Delta("token "); err != nil {
				return Outcome{}, err
			}
		}
		return Success(), m.End()
	})
	pass := Stateless(TransformerFunc(func(ev Event, emit func(Event) error) error { return emit(ev) }))
	b.ReportAllocs()
	b.ResetTimer()
	for ev, err := range Run[NoState](context.Background(), agent, NewInput("t", "r"), WithTransformers(pass, pass, pass)) {
		if err != nil {
			b.Fatal(err)
		}
		if ev.Type() == TypeRunError {
			b.Fatal(ev)
		}
	}
}
