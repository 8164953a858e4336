package loop

import (
	"context"
	"fmt"
	"iter"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
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

// BenchmarkTurnDeltas measures the loop's cost per text delta of a model
// turn: the provider's goroutine hands each delta to the loop, which
// emits it; the run verifies and queues it, and the consumer (keeping no
// event, as the HTTP handler) frames it as SSE. core's
// BenchmarkHandlerDeltas is the same path without the loop.
func BenchmarkTurnDeltas(b *testing.B) {
	n := b.N
	p := ProviderFunc(func(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
		return func(yield func(Delta, error) bool) {
			for range n {
				if !yield(Delta{Text: "token "}, nil) {
					return
				}
			}
		}
	})
	a, err := New(p)
	if err != nil {
		b.Fatal(err)
	}
	in := agui.NewInput("t", "r")
	in.Messages = []agui.Message{UserText("go")}
	runner, err := core.NewRunner[core.NoState](a, in)
	if err != nil {
		b.Fatal(err)
	}
	var (
		frame []byte
		last  agui.EventType
	)
	deliver := func(ev agui.Event) bool {
		frame, err = agui.AppendSSE(frame[:0], ev)
		last = ev.Type()
		return err == nil
	}
	b.ReportAllocs()
	b.ResetTimer()
	c, err := runner.Start(b.Context(), deliver, core.DeliverKeepsNothing())
	if err != nil {
		b.Fatal(err)
	}
	for ready := c.Ready(); ready != nil; ready = c.Ready() {
		<-ready
		c.Take()
	}
	c.Close()
	b.StopTimer()
	if err != nil || last != agui.TypeRunFinished {
		b.Fatalf("the run ends with %s (%v), not RUN_FINISHED", last, err)
	}
}
