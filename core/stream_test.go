package core

import (
	"context"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/agui-go/agui"
)

// An agent emitting 100 MB to a reader that lags behind it cannot grow the
// heap by more than the queue's bound: a full queue blocks the agent.
//
// The reader is slow by construction, not by timing: at every checkpoint
// it waits (synctest.Wait) until the agent is durably blocked, which with a
// bounded queue means "queue full" and with an unbounded one would mean
// "all 100 MB produced", then measures the live heap.
func TestBoundedMemory(t *testing.T) {
	const (
		deltaSize = 1 << 10
		total     = 100 << 20
		deltas    = total / deltaSize
		every     = 5000
		limit     = 4 << 20
	)
	synctest.Test(t, func(t *testing.T) {
		chunk := strings.Repeat("x", deltaSize)
		agent := AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
			m, err := rc.Message()
			if err != nil {
				return agui.Outcome{}, err
			}
			for range deltas {
				// A fresh string per delta, so that retained events would
				// show up in the heap.
				if err := m.Delta(strings.Clone(chunk)); err != nil {
					return agui.Outcome{}, err
				}
			}
			return agui.Success(), m.End()
		})
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		base := ms.HeapAlloc
		var peak uint64
		n, bytes := 0, 0
		for ev, err := range Run[NoState](context.Background(), agent, agui.NewInput("t", "r")) {
			if err != nil {
				t.Fatal(err)
			}
			if c, ok := ev.(*agui.TextMessageContent); ok {
				bytes += len(c.Delta)
			}
			if n++; n%every == 0 {
				synctest.Wait()
				runtime.GC()
				runtime.ReadMemStats(&ms)
				if ms.HeapAlloc > base && ms.HeapAlloc-base > peak {
					peak = ms.HeapAlloc - base
				}
			}
		}
		if bytes != total {
			t.Fatalf("read %d bytes of deltas, want %d", bytes, total)
		}
		t.Logf("%d MB through the stream, peak heap growth %d KB", total>>20, peak>>10)
		if peak > limit {
			t.Errorf("heap grew by %d KB, want under %d KB", peak>>10, limit>>10)
		}
	})
}

// The agent blocks on a full queue until the reader reads: with a queue of
// 2, at most 2 events are ahead of the reader when the agent is blocked.
func TestQueueBoundBlocksAgent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var emitted int
		agent := AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
			for range 10 {
				if err := rc.Emit(&agui.Custom{Name: "x"}); err != nil {
					return agui.Outcome{}, err
				}
				emitted++
			}
			return agui.Success(), nil
		})
		read := 0
		for ev := range Run[NoState](context.Background(), agent, agui.NewInput("t", "r"), WithQueueSize(2)) {
			if ev.Type() != agui.TypeCustom {
				continue
			}
			read++
			synctest.Wait() // the agent is blocked on the full queue, or done
			if ahead := emitted - read; read < 8 && ahead != 2 {
				t.Fatalf("after reading %d, %d events queued ahead; want the bound, 2", read, ahead)
			}
		}
		if read != 10 {
			t.Fatalf("read %d", read)
		}
	})
}

// The terminal event never waits for room in the queue: a run cancelled
// while the agent is blocked on a full queue still ends with RUN_ERROR.
func TestTerminalBypassesQueue(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var returned bool
		agent := AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
			defer func() { returned = true }()
			for {
				if err := rc.Emit(&agui.Custom{Name: "x"}); err != nil {
					return agui.Outcome{}, err
				}
			}
		})
		r, err := NewRunner[NoState](agent, agui.NewInput("t", "r"), WithQueueSize(1))
		if err != nil {
			t.Fatal(err)
		}
		var evs []agui.Event
		for ev := range r.Events(context.Background()) {
			evs = append(evs, ev)
			if len(evs) == 2 {
				synctest.Wait() // the agent is blocked: the queue is full
				r.Cancel(nil)
			}
		}
		if !returned {
			t.Fatal("the agent did not return")
		}
		if e := last[*agui.RunError](t, evs); e.Code != string(agui.CodeCancelled) {
			t.Errorf("RUN_ERROR = %+v", e)
		}
	})
}

// The queue starts small and grows to its bound when it fills; a consumer
// following the generations receives every event once, in order.
func TestQueueGrowsToItsBoundInOrder(t *testing.T) {
	s := newStream(context.Background(), 64)
	first := s.q
	if c := cap(s.q.ch); c != initialQueue {
		t.Fatalf("initial capacity %d, want %d", c, initialQueue)
	}
	if err := s.observe(&agui.RunStarted{ThreadID: "t", RunID: "r"}); err != nil {
		t.Fatal(err)
	}
	if err := s.send(&agui.TextMessageStart{MessageID: "m", Role: agui.RoleAssistant}); err != nil {
		t.Fatal(err)
	}
	for i := 1; i < 64; i++ {
		if err := s.send(&agui.TextMessageContent{MessageID: "m", Delta: strconv.Itoa(i)}); err != nil {
			t.Fatal(err)
		}
	}
	if c := cap(s.q.ch); c != 64 {
		t.Errorf("capacity after 64 unread events %d, want the bound 64", c)
	}
	s.mu.Lock()
	s.ended = true
	close(s.q.ch)
	s.mu.Unlock()
	got := []string{"0"}
	for q := first; q != nil; {
		ev, ok := <-q.ch
		if !ok {
			q = q.next.Load()
			continue
		}
		if c, ok := ev.(*agui.TextMessageContent); ok {
			got = append(got, c.Delta)
		}
	}
	for i, d := range got {
		if d != strconv.Itoa(i) {
			t.Fatalf("event %d is %s: out of order", i, d)
		}
	}
	if len(got) != 64 {
		t.Errorf("received %d events, want 64", len(got))
	}
}
