package loop

import (
	"errors"
	"strconv"
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
	v, err := s.Save(t.Context(), cp, expect, 0)
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
		// Make "newer" running: only the awaiting thread may go, and goes
		// last.
		vNewer := saveStatus(t, s, "newer", StatusRunning, time.Minute, mustVersion(t, s, "newer"))
		saveStatus(t, s, "pushes-awaiting", StatusRunning, time.Minute, 0)
		if present(t, s, "awaiting") || !present(t, s, "running") || !present(t, s, "newer") {
			t.Fatal("the awaiting thread was not the one evicted under pressure")
		}
		// Every thread is held within its lease: nothing may go.
		if err := s.CheckRoom(t.Context(), "refused"); !errors.Is(err, ErrStoreFull) {
			t.Fatalf("CheckRoom of a full store: %v, want ErrStoreFull", err)
		}
		if err := s.CheckRoom(t.Context(), "newer"); err != nil {
			t.Fatalf("CheckRoom of a kept thread: %v", err)
		}
		_, err := s.Save(t.Context(), &Checkpoint{ThreadID: "refused"}, 0, 0)
		if !errors.Is(err, ErrStoreFull) {
			t.Fatalf("new thread in a full store: %v, want ErrStoreFull", err)
		}
		// Existing threads keep saving.
		saveStatus(t, s, "newer", StatusRunning, time.Minute, vNewer)
		// Once a lease ran out its thread may go.
		time.Sleep(2 * time.Minute)
		if err := s.CheckRoom(t.Context(), "accepted"); err != nil {
			t.Fatalf("CheckRoom once leases ran out: %v", err)
		}
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
	if _, err := s.Save(ctx, big("huge", 20_000), 0, 0); !errors.Is(err, ErrStoreFull) {
		t.Fatalf("checkpoint over the cap: %v, want ErrStoreFull", err)
	}
	for _, id := range []string{"a", "b", "c"} {
		if _, err := s.Save(ctx, big(id, 2500), 0, 0); err != nil {
			t.Fatal(err)
		}
	}
	_, bytes := s.Len()
	if bytes <= 7500 || bytes > 10_000 {
		t.Fatalf("estimated %d bytes for three 2500-byte threads", bytes)
	}
	if _, err := s.Save(ctx, big("d", 2500), 0, 0); err != nil {
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
	saveStatus(t, s, "held", StatusRunning, time.Hour, 0)
	a := mustNew(t, Script(Turn{Text: "hi"}), WithCheckpoints(s))
	_, err := a.Execute(t.Context(), Input{ThreadID: "other", Messages: []agui.Message{UserText("x")}})
	var ce *agui.Error
	if !errors.As(err, &ce) || ce.Code != CodeCheckpoint || !errors.Is(err, ErrStoreFull) {
		t.Fatalf("run in a full store: %v, want CHECKPOINT_ERROR wrapping ErrStoreFull", err)
	}
}

func mustVersion(t *testing.T, s *MemoryStore, thread string) int64 {
	t.Helper()
	_, v, err := s.Load(t.Context(), thread)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// held is what the store's checkpoints really hold in bytes: the text a
// client chose, state, parked and pending calls included.
func held(t *testing.T, s *MemoryStore, threads []string) (n int64) {
	t.Helper()
	for _, id := range threads {
		cp, _, err := s.Load(t.Context(), id)
		if errors.Is(err, ErrNotFound) {
			continue
		} else if err != nil {
			t.Fatal(err)
		}
		n += int64(len(cp.State) + len(cp.ThreadID) + len(cp.Owner))
		for _, m := range append(append([]agui.Message(nil), cp.Messages...), toMessages(cp.Parked)...) {
			n += messageSize(m)
		}
		if p := cp.Pending; p != nil && p.Decision != nil {
			n += int64(len(p.Decision.Args) + len(p.Decision.Reason))
		}
	}
	return n
}

func toMessages(ms []*agui.ToolMessage) []agui.Message {
	out := make([]agui.Message, len(ms))
	for i, m := range ms {
		out[i] = m
	}
	return out
}

// The byte cap counts a thread's whole footprint: 60 threads each pinning
// a big state, big parked results and a big edited call stay under it
// (before, only messages counted, and they pinned 60 times the cap).
func TestMemoryStoreByteCapCountsWholeCheckpoint(t *testing.T) {
	const limit = 4 << 20
	s := NewMemoryStore(WithMemoryMaxBytes(limit))
	big := strings.Repeat("s", 256<<10)
	var threads []string
	for i := range 60 {
		id := "t" + strings.Repeat("i", i)
		threads = append(threads, id)
		st := StatusIdle
		if i%2 == 1 {
			st = StatusAwaitingApproval
		}
		cp := &Checkpoint{ThreadID: id, Status: st, Owner: "stranger",
			State:       []byte(`"` + big + `"`),
			Messages:    []agui.Message{UserText("tiny")},
			Parked:      []*agui.ToolMessage{{ID: "p", ToolCallID: "c", Content: agui.TextContent(big)}},
			ClientCalls: []string{big},
			Pending:     &PendingApproval{InterruptID: "i", ToolCallID: "c", Decision: &Decision{Approved: true, Args: []byte(`"` + big + `"`)}},
		}
		if _, err := s.Save(t.Context(), cp, 0, 0); err != nil {
			t.Fatalf("save %d: %v", i, err)
		}
		if _, b := s.Len(); b > limit {
			t.Fatalf("after %d saves the store accounts %d bytes, cap %d", i+1, b, limit)
		}
		if h := held(t, s, threads); h > limit {
			t.Fatalf("after %d saves the store holds %d bytes of checkpoints, cap %d", i+1, h, limit)
		}
	}
	if n, _ := s.Len(); n == 0 || n >= 60 {
		t.Fatalf("%d threads kept, want some evicted and the newest kept", n)
	}
	if !present(t, s, threads[59]) {
		t.Fatal("the newest thread was not kept")
	}
}

// A principal flooding the store with approvals it never answers loses
// its own oldest ones; another principal's new thread still fits, and
// its approvals stay.
func TestMemoryStoreAwaitingFloodEvictsFlooderFirst(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := NewMemoryStore(WithMemoryMaxThreads(100))
		ctx := t.Context()
		save := func(id, owner string, st Status) error {
			cp := &Checkpoint{ThreadID: id, Owner: owner, Status: st, Messages: []agui.Message{UserText("hi")}}
			if st == StatusRunning {
				cp.LeaseUntil = time.Now().Add(time.Minute)
			}
			_, err := s.Save(ctx, cp, 0, 0)
			time.Sleep(time.Millisecond) // orders the saves
			return err
		}
		for i := range 3 {
			if err := save("alice-"+strings.Repeat("a", i), "alice", StatusAwaitingApproval); err != nil {
				t.Fatal(err)
			}
		}
		for i := range 10_000 {
			if err := save("mallory-"+itoa(i), "mallory", StatusAwaitingApproval); err != nil {
				t.Fatalf("flood save %d: %v", i, err)
			}
		}
		if n, _ := s.Len(); n != 100 {
			t.Fatalf("%d threads kept, want the cap, 100", n)
		}
		if err := s.CheckRoom(ctx, "bob-new"); err != nil {
			t.Fatalf("CheckRoom for a new thread after the flood: %v", err)
		}
		if err := save("bob-new", "bob", StatusRunning); err != nil {
			t.Fatalf("another principal's new thread after the flood: %v", err)
		}
		for i := range 3 {
			if !present(t, s, "alice-"+strings.Repeat("a", i)) {
				t.Fatal("the flood evicted another principal's approval")
			}
		}
		// The flooder's newest are kept, its oldest went first.
		if present(t, s, "mallory-"+itoa(9_903)) || !present(t, s, "mallory-"+itoa(9_999)) || !present(t, s, "mallory-"+itoa(9_905)) {
			t.Fatal("the flooder's oldest approvals were not the ones evicted")
		}
	})
}

// Past its per-principal cap a principal's oldest approval goes, even
// with room to spare.
func TestMemoryStoreMaxAwaitingPerOwner(t *testing.T) {
	s := NewMemoryStore(WithMemoryMaxAwaitingPerOwner(2))
	for _, id := range []string{"a1", "a2", "a3"} {
		if _, err := s.Save(t.Context(), &Checkpoint{ThreadID: id, Owner: "a", Status: StatusAwaitingApproval}, 0, 0); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Save(t.Context(), &Checkpoint{ThreadID: "b1", Owner: "b", Status: StatusAwaitingApproval}, 0, 0); err != nil {
		t.Fatal(err)
	}
	if present(t, s, "a1") || !present(t, s, "a2") || !present(t, s, "a3") || !present(t, s, "b1") {
		t.Fatal("the per-principal cap did not evict the principal's oldest approval alone")
	}
	// An answered approval no longer counts.
	v := mustVersion(t, s, "a2")
	if _, err := s.Save(t.Context(), &Checkpoint{ThreadID: "a2", Owner: "a", Status: StatusIdle}, v, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Save(t.Context(), &Checkpoint{ThreadID: "a4", Owner: "a", Status: StatusAwaitingApproval}, 0, 0); err != nil {
		t.Fatal(err)
	}
	if !present(t, s, "a2") || !present(t, s, "a3") || !present(t, s, "a4") {
		t.Fatal("an answered approval counted against the cap")
	}
}

// A thread that expired and is created again never repeats a version: a
// writer holding the old thread's version cannot overwrite the new one.
func TestMemoryStoreVersionsNeverRepeatAfterExpiry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := NewMemoryStore(WithMemoryIdleTTL(time.Minute))
		ctx := t.Context()
		old := &Checkpoint{ThreadID: "t", Status: StatusIdle, Steps: 1}
		v := saveStatus(t, s, "t", StatusIdle, 0, 0)
		v = saveStatus(t, s, "t", StatusIdle, 0, v)
		time.Sleep(2 * time.Minute)
		seen := map[int64]bool{}
		nv := int64(0)
		for range 4 {
			nv = saveStatus(t, s, "t", StatusIdle, 0, nv)
			if nv <= v || seen[nv] {
				t.Fatalf("version %d after expiry repeats one held before (%d)", nv, v)
			}
			seen[nv] = true
			if _, err := s.Save(ctx, old, v, 0); !errors.Is(err, ErrConflict) {
				t.Fatalf("stale writer over the expired thread's version %d: %v, want ErrConflict", v, err)
			}
		}
	})
}

func itoa(i int) string { return strconv.Itoa(i) }
