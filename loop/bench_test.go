package loop

import (
	"fmt"
	"testing"
)

// BenchmarkExecuteParallelTools measures one run of two turns: ten
// parallel tool calls, then an answer, with events discarded.
func BenchmarkExecuteParallelTools(b *testing.B) {
	ids := make([]string, 10)
	for i := range ids {
		ids[i] = fmt.Sprintf("c%d", i)
	}
	a, err := New(Script(Turn{Text: "working on it", Calls: echoCalls(ids...)}, Turn{Text: "done"}), WithTools(echoTool(b)), WithToolConcurrency(4))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		res, err := a.Execute(b.Context(), user("go"))
		if err != nil || res.FinishReason != FinishStop {
			b.Fatal(res.FinishReason, err)
		}
	}
}
