package core

import (
	"context"
	"strconv"
	"sync"
	"testing"

	"github.com/agui-go/agui"
)

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
		for i := range 2 * n {
			if i == n {
				<-release
			}
			if err := m.Delta(strconv.Itoa(i)); err != nil {
				return agui.Outcome{}, err
			}
		}
		return agui.Success(), m.End()
	})
	var pool sync.Pool
	start := func() (*Consumer, *int) {
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
		d := q.(*Consumer)
		d.follow() // this consumer takes events as they come, not a first burst
		return d, delivered
	}
	stock := func(d *Consumer) int {
		d.s.qmu.Lock()
		defer d.s.qmu.Unlock()
		return len(d.s.free) + len(d.freed)
	}

	d, delivered := start()
	for *delivered < n+2 { // RUN_STARTED, TEXT_MESSAGE_START, the deltas
		<-d.Ready()
		d.Take()
	}
	if stock(d) == 0 {
		t.Fatalf("no reusable deltas in stock after %d", n)
	}
	d.Trim()
	if got := stock(d); got != 0 || d.batch != nil {
		t.Errorf("after trim: %d deltas in stock, batch %v; want none", got, d.batch)
	}
	// Stream n more deltas, then end: the stock goes to the pool.
	close(release)
	for ready := d.Ready(); ready != nil; ready = d.Ready() {
		<-ready
		d.Take()
	}
	d.join()
	// What close gives the pool (under the race detector a sync.Pool
	// drops some of what it is given, so the pool is not asked).
	sc := d.collectScratch()
	d.Close()
	if sc == nil || len(sc.free) == 0 {
		t.Fatal("the ended run left no scratch with reusable deltas for the handler's next run")
	}
	for _, ev := range sc.free {
		if ev.MessageID != "" || ev.Delta != "" {
			t.Fatalf("a pooled delta was not cleared: %+v", ev)
		}
	}
}
