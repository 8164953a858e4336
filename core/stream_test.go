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

// The agent blocks on a full queue until the reader takes from it: with a
// queue of 2, when the agent is blocked the 2 queued events are ahead of
// the reader, and at most 1 more it took with them and has not read yet.
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
			if ahead := emitted - read; read < 8 && (ahead < 2 || ahead > 3) {
				t.Fatalf("after reading %d, %d events ahead; want the bound, 2, and at most 1 taken but not read", read, ahead)
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

// Everything queued goes to the consumer in one take, in the order it was
// verified; an emit finding the queue at its bound waits until the
// consumer takes.
func TestQueueTakesAllInOrderAndWaitsAtItsBound(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newStream(context.Background(), 64)
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
		sent := make(chan error, 1)
		go func() { sent <- s.send(&agui.TextMessageContent{MessageID: "m", Delta: "64"}) }()
		synctest.Wait()
		select {
		case err := <-sent:
			t.Fatalf("an emit on a full queue returned (%v) before the consumer took", err)
		default:
		}
		evs, closed := s.take(nil, nil)
		if closed || len(evs) != 64 {
			t.Fatalf("took %d events, closed %v; want the 64 queued, open", len(evs), closed)
		}
		for i, ev := range evs[1:] {
			if d := ev.ev.(*agui.TextMessageContent).Delta; d != strconv.Itoa(i+1) {
				t.Fatalf("event %d is %s: out of order", i+1, d)
			}
		}
		if err := <-sent; err != nil {
			t.Fatal(err)
		}
		if evs, _ = s.take(nil, nil); len(evs) != 1 || evs[0].ev.(*agui.TextMessageContent).Delta != "64" {
			t.Fatalf("took %v after the wait, want the 64th delta", evs)
		}
		if err := s.finish(&agui.RunError{Message: "end"}, true); err != nil {
			t.Fatal(err)
		}
		if evs, closed = s.take(nil, nil); !closed || len(evs) != 0 {
			t.Errorf("took %d events, closed %v after finish; want none, closed", len(evs), closed)
		}
		for range s.wake { // ends only if finish closed it
		}
	})
}

// With a bound of 0 an emit returns once the consumer has taken its event;
// cancelled before that, it fails and withdraws the event.
func TestUnboundedQueueHandsOver(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		s := newStream(ctx, 0)
		if err := s.observe(&agui.RunStarted{ThreadID: "t", RunID: "r"}); err != nil {
			t.Fatal(err)
		}
		sent := make(chan error, 1)
		go func() { sent <- s.send(&agui.Custom{Name: "a"}) }()
		synctest.Wait()
		select {
		case err := <-sent:
			t.Fatalf("emit returned (%v) before the consumer took its event", err)
		default:
		}
		if evs, _ := s.take(nil, nil); len(evs) != 1 {
			t.Fatalf("took %d events, want 1", len(evs))
		}
		if err := <-sent; err != nil {
			t.Fatal(err)
		}
		go func() { sent <- s.send(&agui.Custom{Name: "b"}) }()
		synctest.Wait()
		cancel()
		if err := <-sent; agui.CodeOf(err) != agui.CodeCancelled {
			t.Fatalf("emit cancelled while waiting returned %v, want CANCELLED", err)
		}
		if evs, _ := s.take(nil, nil); len(evs) != 0 {
			t.Errorf("took %d events after a cancelled emit, want it withdrawn", len(evs))
		}
	})
}
