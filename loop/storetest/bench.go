package storetest

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
)

// BenchThreads measures the thread list on s, which must be empty and a
// [loop.ThreadStore]: one principal with 10,000 threads among 100
// principals (the 99 others with 100 each), then b.N first pages of 20
// of that principal's threads and b.N pages after a cursor. It reports
// the p50 and p99 of each in microseconds, so that every store's figure
// is the same measurement. Filling the store (19,900 saves) is not timed.
func BenchThreads(b *testing.B, s loop.Store) {
	ts, ok := s.(loop.ThreadStore)
	if !ok {
		b.Fatalf("%T does not implement loop.ThreadStore", s)
	}
	ctx := b.Context()
	save := func(owner string, i int) {
		cp := owned(fmt.Sprintf("%s-%05d", owner, i), owner, 4)
		if _, err := s.Save(ctx, cp, 0, 0); err != nil {
			b.Fatal(err)
		}
	}
	for i := range 10_000 {
		save("p000", i)
	}
	for p := 1; p < 100; p++ {
		for i := range 100 {
			save(fmt.Sprintf("p%03d", p), i)
		}
	}
	first, err := ts.Threads(ctx, "p000", loop.ThreadQuery{Limit: 20})
	if err != nil || len(first.Threads) != 20 || first.Next == "" {
		b.Fatalf("first page: %d threads, %v", len(first.Threads), err)
	}
	var heads, nexts []time.Duration
	for b.Loop() {
		t0 := time.Now()
		if _, err := ts.Threads(ctx, "p000", loop.ThreadQuery{Limit: 20}); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if _, err := ts.Threads(ctx, "p000", loop.ThreadQuery{Limit: 20, Cursor: first.Next}); err != nil {
			b.Fatal(err)
		}
		heads, nexts = append(heads, t1.Sub(t0)), append(nexts, time.Since(t1))
	}
	percentiles(b, heads, "first")
	percentiles(b, nexts, "next")
}

// percentiles reports the p50 and p99 of ds in microseconds.
func percentiles(b *testing.B, ds []time.Duration, name string) {
	slices.Sort(ds)
	at := func(q float64) float64 { return float64(ds[int(q*float64(len(ds)-1))].Nanoseconds()) / 1e3 }
	b.ReportMetric(at(0.50), name+"-p50-µs")
	b.ReportMetric(at(0.99), name+"-p99-µs")
}

// BenchTurns measures what one turn of a growing thread costs s: each
// iteration drives a new thread for [LongThreadTurns] turns as
// [LongThread] does, each turn a save of an assistant turn with a tool
// call and its result (about 600 bytes) over the version before, kept
// being the messages before them. It reports the save's time at turn 10
// and at turn 1,000 (each the median of the 11 turns around it, pooled
// over the iterations) and their ratio, so that every store's figure is
// the same measurement. written, when not nil, counts the bytes the store
// has sent its backend so far; the bytes of the same turns are reported
// too.
func BenchTurns(b *testing.B, s loop.Store, written func() int64) {
	ctx := b.Context()
	var early, late, earlyB, lateB []float64
	n := 0
	for b.Loop() {
		n++
		cp := &loop.Checkpoint{ThreadID: fmt.Sprint("turns-", n), Owner: "ann", Status: loop.StatusRunning,
			Messages: []agui.Message{&agui.UserMessage{ID: "u0", Content: agui.TextContent("plan a trip")}}}
		v, err := s.Save(ctx, cp, 0, 0)
		if err != nil {
			b.Fatal(err)
		}
		for turn := 1; turn <= LongThreadTurns; turn++ {
			kept := len(cp.Messages)
			cp.Messages = append(slices.Clip(cp.Messages), turnMessages(turn)...)
			cp.Steps = turn
			var w0 int64
			if written != nil {
				w0 = written()
			}
			t0 := time.Now()
			if v, err = s.Save(ctx, cp, v, kept); err != nil {
				b.Fatal(err)
			}
			d := float64(time.Since(t0).Nanoseconds()) / 1e3
			var w float64
			if written != nil {
				w = float64(written() - w0)
			}
			switch {
			case turn >= 5 && turn <= 15:
				early, earlyB = append(early, d), append(earlyB, w)
			case turn >= LongThreadTurns-10:
				late, lateB = append(late, d), append(lateB, w)
			}
		}
	}
	median := func(xs []float64) float64 { slices.Sort(xs); return xs[len(xs)/2] }
	t10, t1000 := median(early), median(late)
	b.ReportMetric(t10, "turn10-µs")
	b.ReportMetric(t1000, "turn1000-µs")
	b.ReportMetric(t1000/t10, "growth-x")
	if written != nil {
		b.ReportMetric(median(earlyB), "turn10-B")
		b.ReportMetric(median(lateB), "turn1000-B")
	}
}
