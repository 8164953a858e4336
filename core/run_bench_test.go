package core

import (
	"context"
	"testing"

	"github.com/agui-go/agui"
)

// BenchmarkRunDeltas measures the emit path end to end: verify, enqueue,
// hand over to the consumer's goroutine, per TEXT_MESSAGE_CONTENT.
func BenchmarkRunDeltas(b *testing.B) {
	agent := AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		m, err := rc.Message()
		if err != nil {
			return agui.Outcome{}, err
		}
		for range b.N {
			if err := m.Delta("token "); err != nil {
				return agui.Outcome{}, err
			}
		}
		return agui.Success(), m.End()
	})
	b.ReportAllocs()
	b.ResetTimer()
	for ev, err := range Run[NoState](context.Background(), agent, agui.NewInput("t", "r")) {
		if err != nil {
			b.Fatal(err)
		}
		if ev.Type() == agui.TypeRunError {
			b.Fatal(ev)
		}
	}
}

// BenchmarkRunDeltasChain is BenchmarkRunDeltas through three pass-through
// transformers: the cost of the chain and its per-call guards.
func BenchmarkRunDeltasChain(b *testing.B) {
	agent := AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		m, err := rc.Message()
		if err != nil {
			return agui.Outcome{}, err
		}
		for range b.N {
			if err := m.Delta("token "); err != nil {
				return agui.Outcome{}, err
			}
		}
		return agui.Success(), m.End()
	})
	pass := Stateless(TransformerFunc(func(ev agui.Event, emit func(agui.Event) error) error { return emit(ev) }))
	b.ReportAllocs()
	b.ResetTimer()
	for ev, err := range Run[NoState](context.Background(), agent, agui.NewInput("t", "r"), WithTransformers(pass, pass, pass)) {
		if err != nil {
			b.Fatal(err)
		}
		if ev.Type() == agui.TypeRunError {
			b.Fatal(ev)
		}
	}
}
