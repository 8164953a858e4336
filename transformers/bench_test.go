package transformers

import (
	"io"
	"log/slog"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// BenchmarkBuiltins measures each built-in's cost per event over a
// delegating run, building the transformer per run as the runner does.
func BenchmarkBuiltins(b *testing.B) {
	toState, err := ToolResultToState(StateMapping{Tool: "estimate", Path: "/estimate"})
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		nt   core.TransformerFactory
	}{
		{"Filter", DenyToolCalls("delegate")},
		{"ToolResultToState", toState},
		{"Inline", SubagentVisibility(VisibilityInline)},
		{"Hidden", SubagentVisibility(VisibilityHidden)},
		{"Log", Log(slog.New(slog.NewTextHandler(io.Discard, nil)), slog.LevelInfo)},
		{"Metrics", Metrics(&recordingSink{})},
	} {
		b.Run(bc.name, func(b *testing.B) {
			events := delegation()
			in := input()
			discard := func(agui.Event) error { return nil }
			b.ReportAllocs()
			for b.Loop() {
				t := bc.nt(in)
				for _, ev := range events {
					if err := t.Transform(ev, discard); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(events)), "ns/event")
		})
	}
}
