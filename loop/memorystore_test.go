package loop

import (
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agui-go/agui"
)

func saveStatus(t *testing.T, s *MemoryStore, thread string, st Status, lease time.Duration, expect int64) int64 {
	t.Helper()
	cp := &Checkpoint{ThreadID: thread, Status: st, Messages: []agui.Message{UserText("hi")}}
	if st == StatusRunning {
		cp.LeaseUntil = time.Now().Add(lease)
	}
	v, err := s.Save(t.Context(), cp, expect)
	if err != nil {
		t.Fatalf("save %s: %v", thread, err)
	}
	return v
}

func present(t *testing.T, s *MemoryStore, thread string) bool {
	t.Helper()
	_, _, err := s.Load(t.Context(), thread)
	if err != nil && !errors.Is(err, ErrNotFound) {
		t.Fatal(err)
	}
	return err == nil
}

func TestMemoryStoreIdleTTL(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := NewMemoryStore(WithMemoryIdleTTL(time.Hour), WithMemoryAwaitingTTL(24*time.Hour))
		saveStatus(t, s, "idle", StatusIdle, 0, 0)
		saveStatus(t, s, "awaiting", StatusAwaitingApproval, 0, 0)
		saveStatus(t, s, "running", StatusRunning, 3*time.Hour, 0)
		time.Sleep(time.Hour - time.Second)
		if !present(t, s, "idle") {
			t.Fatal("idle thread gone before its TTL")
		}
		time.Sleep(time.Second)
		if present(t, s, "idle") {
			t.Fatal("idle thread kept past its TTL")
		}
		// A running thread is kept through its lease, and its TTL counts
		// from the lease's end: its run died.
		time.Sleep(3*time.Hour - time.Nanosecond)
		if !present(t, s, "running") {
			t.Fatal("running thread gone within its lease")
		}
		time.Sleep(time.Hour)
		if present(t, s, "running") {
			t.Fatal("thread whose lease ran out kept past its TTL")
		}
		if !present(t, s, "awaiting") {
			t.Fatal("awaiting thread gone before its TTL")
		}
		time.Sleep(20 * time.Hour)
		if present(t, s, "awaiting") {
			t.Fatal("awaiting thread kept past its TTL")
		}
	})
}

// Threads nobody asks for again are swept on a later save.
func TestMemoryStoreSweep(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := NewMemoryStore(WithMemoryIdleTTL(time.Minute))
		for _, id := range []string{"a", "b", "c"} {
			saveStatus(t, s, id, StatusIdle, 0, 0)
		}
		time.Sleep(2 * time.Minute)
		saveStatus(t, s, "d", StatusIdle, 0, 0)
		if n, _ := s.Len(); n != 1 {
			t.Fatalf("%d threads after the sweep, want 1", n)
		}
	})
}

func TestMemoryStoreSaveRenewsTTL(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := NewMemoryStore(WithMemoryIdleTTL(time.Hour))
		v := saveStatus(t, s, "t", StatusIdle, 0, 0)
		time.Sleep(50 * time.Minute)
		saveStatus(t, s, "t", StatusIdle, 0, v)
		time.Sleep(50 * time.Minute)
		if !present(t, s, "t") {
			t.Fatal("thread saved 50 minutes ago is gone")
		}
	})
}

func TestMemoryStoreThreadCap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := NewMemoryStore(WithMemoryMaxThreads(3))
		saveStatus(t, s, "old-idle", StatusIdle, 0, 0)
		time.Sleep(time.Second)
		saveStatus(t, s, "running", StatusRunning, time.Minute, 0)
		saveStatus(t, s, "awaiting", StatusAwaitingApproval, 0, 0)
		saveStatus(t, s, "new", StatusIdle, 0, 0) // evicts the least recently saved idle thread
		if present(t, s, "old-idle") || !present(t, s, "running") || !present(t, s, "awaiting") || !present(t, s, "new") {
			t.Fatal("the wrong thread was evicted")
		}
		saveStatus(t, s, "newer", StatusIdle, 0, 0) // evicts "new"
		if present(t, s, "new") {
			t.Fatal("idle thread not evicted")
		}
		// Make "newer" running: nothing is evictable any more.
		saveStatus(t, s, "newer", StatusRunning, time.Minute, 1)
		_, err := s.Save(t.Context(), &Checkpoint{ThreadID: "refused"}, 0)
		if !errors.Is(err, ErrStoreFull) {
			t.Fatalf("new thread in a full store: %v, want ErrStoreFull", err)
		}
		// Existing threads keep saving.
		saveStatus(t, s, "running", StatusRunning, time.Minute, 1)
		// Once a lease ran out its thread may go.
		time.Sleep(2 * time.Minute)
		saveStatus(t, s, "accepted", StatusIdle, 0, 0)
		if n, _ := s.Len(); n != 3 {
			t.Fatalf("%d threads, want 3", n)
		}
	})
}

func TestMemoryStoreByteCap(t *testing.T) {
	s := NewMemoryStore(WithMemoryMaxBytes(10_000))
	big := func(id string, n int) *Checkpoint {
		return &Checkpoint{ThreadID: id, Status: StatusIdle, Messages: []agui.Message{UserText(strings.Repeat("x", n))}}
	}
	ctx := t.Context()
	if _, err := s.Save(ctx, big("huge", 20_000), 0); !errors.Is(err, ErrStoreFull) {
		t.Fatalf("checkpoint over the cap: %v, want ErrStoreFull", err)
	}
	for _, id := range []string{"a", "b", "c"} {
		if _, err := s.Save(ctx, big(id, 2500), 0); err != nil {
			t.Fatal(err)
		}
	}
	_, bytes := s.Len()
	if bytes <= 7500 || bytes > 10_000 {
		t.Fatalf("estimated %d bytes for three 2500-byte threads", bytes)
	}
	if _, err := s.Save(ctx, big("d", 2500), 0); err != nil {
		t.Fatal(err)
	}
	if present(t, s, "a") || !present(t, s, "d") {
		t.Fatal("the least recently saved thread was not evicted")
	}
	if _, b := s.Len(); b > 10_000 {
		t.Fatalf("%d bytes kept, cap 10000", b)
	}
	if err := s.Delete(ctx, "d"); err != nil {
		t.Fatal(err)
	}
	if n, b := s.Len(); n != 2 || b >= bytes {
		t.Fatalf("after delete: %d threads, %d bytes", n, b)
	}
}

func TestMemoryStoreNoLimits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := NewMemoryStore(WithMemoryMaxThreads(0), WithMemoryMaxBytes(0), WithMemoryIdleTTL(0), WithMemoryAwaitingTTL(-1))
		for i := range 50 {
			saveStatus(t, s, strings.Repeat("t", i+1), StatusIdle, 0, 0)
		}
		time.Sleep(1000 * time.Hour)
		if n, _ := s.Len(); n != 50 || !present(t, s, "t") {
			t.Fatalf("%d threads kept without limits, want 50", n)
		}
	})
}

// Loop runs in a store at its cap fail before anything runs.
func TestMemoryStoreFullFailsRun(t *testing.T) {
	s := NewMemoryStore(WithMemoryMaxThreads(1))
	saveStatus(t, s, "held", StatusAwaitingApproval, 0, 0)
	a := mustNew(t, Script(Turn{Text: "hi"}), WithCheckpoints(s))
	_, err := a.Execute(t.Context(), Input{ThreadID: "other", Messages: []agui.Message{UserText("x")}})
	var ce *agui.Error
	if !errors.As(err, &ce) || ce.Code != CodeCheckpoint || !errors.Is(err, ErrStoreFull) {
		t.Fatalf("run in a full store: %v, want CHECKPOINT_ERROR wrapping ErrStoreFull", err)
	}
}
