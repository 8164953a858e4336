package storetest

import (
	"fmt"
	"slices"
	"testing"
	"time"

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
		if _, err := s.Save(ctx, cp, 0); err != nil {
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
