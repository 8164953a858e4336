package loop

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agui-go/agui"
)

func TestMemoryStoreVersionCheck(t *testing.T) {
	ctx := t.Context()
	s := NewMemoryStore()
	if _, _, err := s.Load(ctx, "t"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("load empty: %v", err)
	}
	cp := &Checkpoint{ThreadID: "t", Messages: []agui.Message{UserText("a")}}
	v1, err := s.Save(ctx, cp, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Save(ctx, cp, 0, 0); !errors.Is(err, ErrConflict) {
		t.Fatalf("second create: %v", err)
	}
	cp.Messages = append(cp.Messages, UserText("b"))
	v2, err := s.Save(ctx, cp, v1, 0)
	if err != nil || v2 == v1 {
		t.Fatalf("update: %v %d", err, v2)
	}
	if _, err := s.Save(ctx, cp, v1, 0); !errors.Is(err, ErrConflict) {
		t.Fatalf("stale update: %v", err)
	}
	got, v, err := s.Load(ctx, "t")
	if err != nil || v != v2 || len(got.Messages) != 2 {
		t.Fatalf("load: %v %d %d", err, v, len(got.Messages))
	}
	got.Messages[0] = UserText("changed") // the store's copy is its own
	again, _, _ := s.Load(ctx, "t")
	if again.Messages[0] == got.Messages[0] {
		t.Fatal("loaded checkpoint aliases the store's")
	}
	if err := s.Delete(ctx, "t"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Load(ctx, "t"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("after delete: %v", err)
	}
}

// savesStore records every checkpoint saved.
type savesStore struct {
	*MemoryStore
	mu    sync.Mutex
	saves []Checkpoint
}

func (s *savesStore) Save(ctx context.Context, cp *Checkpoint, expect int64, kept int) (int64, error) {
	v, err := s.MemoryStore.Save(ctx, cp, expect, kept)
	if err == nil {
		s.mu.Lock()
		s.saves = append(s.saves, cp.clone())
		s.mu.Unlock()
	}
	return v, err
}

func (s *savesStore) list() []Checkpoint {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.saves)
}

// shape summarizes a saved checkpoint: status, then per message r (role
// initial) and answered calls.
func shape(cp Checkpoint) string {
	s := string(cp.Status) + ":"
	for _, m := range cp.Messages {
		s += string(m.Role())[:1]
	}
	return s
}

// Checkpoints: "the model's turn is checkpointed before any call
// starts, then again each time the in-order run of finished calls grows
// (with 1, after every call)."
func TestCheckpointTurnThenEachPrefixGrowth(t *testing.T) {
	store := &savesStore{MemoryStore: NewMemoryStore()}
	var atStart []string
	tool, err := NewTool("echo", "", func(ctx context.Context, in workArgs) (string, error) {
		atStart = append(atStart, shape(store.list()[len(store.list())-1]))
		return in.ID, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	a := mustNew(t, Script(Turn{Calls: echoCalls("c1", "c2", "c3")}, Turn{Text: "ok"}), WithTools(tool), WithToolConcurrency(1), WithCheckpoints(store))
	res, err := a.Execute(t.Context(), user("go"))
	if err != nil {
		t.Fatal(err)
	}
	assertResult(t, res)
	var got []string
	for _, cp := range store.list() {
		got = append(got, shape(cp))
		assertPausedTranscript(t, cp.Messages) // every saved transcript is valid
	}
	want := []string{"running:u", "running:ua", "running:uat", "running:uatt", "running:uattt", "running:uattta", "idle:uattta"}
	if !slices.Equal(got, want) {
		t.Fatalf("saves\n got %v\nwant %v", got, want)
	}
	if !slices.Equal(atStart, []string{"running:ua", "running:uat", "running:uatt"}) {
		t.Fatalf("checkpoint seen by each call as it starts: %v", atStart)
	}
}

// With out-of-order completion a save happens only when the in-order
// prefix grows.
func TestCheckpointPrefixOnlyGrowsInOrder(t *testing.T) {
	store := &savesStore{MemoryStore: NewMemoryStore()}
	b := newBlocker()
	a := mustNew(t, Script(Turn{Calls: workCalls("c1", "c2", "c3")}, Turn{Text: "ok"}), WithTools(b.tool(t)), WithCheckpoints(store))
	rec := &recorder{results: make(chan string, 8)}
	in := user("go")
	in.OnEvent = rec.on
	x := goExecute(t.Context(), a, in)
	for range 3 {
		<-b.started
	}
	for _, id := range []string{"c2", "c3", "c1"} {
		b.release(id)
		<-rec.results
	}
	if _, err := x.wait(); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, cp := range store.list() {
		got = append(got, shape(cp))
	}
	want := []string{"running:u", "running:ua", "running:uattt", "running:uattta", "idle:uattta"}
	if !slices.Equal(got, want) {
		t.Fatalf("saves\n got %v\nwant %v", got, want)
	}
}

// "A resumed run never runs a recorded call again, and never
// asks the model again for a turn it already checkpointed." The process
// dies after c1 was recorded: a new agent on the same store (after the
// dead run's lease) runs only c2 and c3, then asks for turn 2.
func TestCheckpointCrashResume(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := &savesStore{MemoryStore: NewMemoryStore()}
		b := newBlocker()
		b.release("c1")
		p1 := Script(Turn{Calls: workCalls("c1", "c2", "c3")}, Turn{Text: "ok"})
		a1 := mustNew(t, p1, WithTools(b.tool(t)), WithToolConcurrency(1), WithCheckpoints(store), WithLease(time.Minute))
		ctx, cancel := context.WithCancel(t.Context())
		x := goExecute(ctx, a1, user("go"))
		<-b.started
		<-b.started // c2 started: c1 is recorded
		var crashed Checkpoint
		for _, cp := range store.list() {
			if shape(cp) == "running:uat" {
				crashed = cp
			}
		}
		cancel()
		x.wait()
		if crashed.ThreadID == "" {
			t.Fatalf("no checkpoint with c1 recorded: %v", store.list())
		}

		// The new process: its store holds what the dead one last wrote.
		fresh := NewMemoryStore()
		if _, err := fresh.Save(t.Context(), &crashed, 0, 0); err != nil {
			t.Fatal(err)
		}
		b2 := newBlocker()
		for _, id := range []string{"c1", "c2", "c3"} {
			b2.release(id)
		}
		p2 := Script(Turn{Calls: workCalls("c1", "c2", "c3")}, Turn{Text: "ok"})
		a2 := mustNew(t, p2, WithTools(b2.tool(t)), WithToolConcurrency(1), WithCheckpoints(fresh), WithLease(time.Minute))
		if _, err := a2.Execute(t.Context(), Input{ThreadID: crashed.ThreadID}); agui.CodeOf(err) != CodeBusy {
			t.Fatalf("within the lease: %v, want %s", err, CodeBusy)
		}
		time.Sleep(time.Minute) // the dead run's lease runs out
		res, err := a2.Execute(t.Context(), Input{ThreadID: crashed.ThreadID})
		if err != nil {
			t.Fatal(err)
		}
		assertResult(t, res)
		if got := b2.log.list(); !slices.Equal(got, []string{"start c2", "end c2", "start c3", "end c3"}) {
			t.Fatalf("recovery ran %v", got)
		}
		if p2.Calls() != 1 || res.FinishReason != FinishStop {
			t.Fatalf("%d model calls (want 1: turn 2 only), finish %s", p2.Calls(), res.FinishReason)
		}
	})
}

// two requests on one thread at once: one proceeds,
// the other gets RUN_ERROR with a stable code.
func TestCheckpointTwoRequestsOnOneThread(t *testing.T) {
	b := newBlocker()
	p := Script(Turn{Calls: workCalls("c1")}, Turn{Text: "ok"})
	a := mustNew(t, p, WithTools(b.tool(t)))
	x := goExecute(t.Context(), a, Input{ThreadID: "t", Messages: []agui.Message{UserText("one")}})
	<-b.started
	_, err := a.Execute(t.Context(), Input{ThreadID: "t", Messages: []agui.Message{UserText("two")}})
	if agui.CodeOf(err) != CodeBusy {
		t.Fatalf("second request: %v", err)
	}
	if p.Calls() != 1 {
		t.Fatalf("the busy request called the model")
	}
	b.release("c1")
	res, err := x.wait()
	if err != nil {
		t.Fatal(err)
	}
	assertResult(t, res)
	// The thread is free again.
	res, err = a.Execute(t.Context(), Input{ThreadID: "t", Messages: []agui.Message{UserText("three")}})
	if err != nil {
		t.Fatal(err)
	}
	assertResult(t, res)
}

// Two runs that read the thread at the same version: the version check
// lets one through.
func TestCheckpointTwoRequestsSameVersion(t *testing.T) {
	store := &barrierStore{MemoryStore: NewMemoryStore()}
	p := Script(Turn{Text: "ok"})
	a := mustNew(t, p, WithCheckpoints(store))
	store.wg.Add(2)
	x1 := goExecute(t.Context(), a, Input{ThreadID: "t", Messages: []agui.Message{UserText("one")}})
	x2 := goExecute(t.Context(), a, Input{ThreadID: "t", Messages: []agui.Message{UserText("two")}})
	_, err1 := x1.wait()
	_, err2 := x2.wait()
	if (err1 == nil) == (err2 == nil) || agui.CodeOf(errors.Join(err1, err2)) != CodeBusy {
		t.Fatalf("errors %v, %v", err1, err2)
	}
	if p.Calls() != 1 {
		t.Fatalf("%d model calls", p.Calls())
	}
}

// failingStore fails every Save after the first n.
type failingStore struct {
	*MemoryStore
	n int
}

func (s *failingStore) Save(ctx context.Context, cp *Checkpoint, expect int64, kept int) (int64, error) {
	if s.n == 0 {
		return 0, fmt.Errorf("disk full")
	}
	s.n--
	return s.MemoryStore.Save(ctx, cp, expect, kept)
}

func TestCheckpointStoreFailure(t *testing.T) {
	for n := range 3 {
		a := mustNew(t, Script(Turn{Calls: echoCalls("c1", "c2")}, Turn{Text: "ok"}), WithTools(echoTool(t)), WithToolConcurrency(1), WithCheckpoints(&failingStore{NewMemoryStore(), n}))
		res, err := a.Execute(t.Context(), user("go"))
		if agui.CodeOf(err) != CodeCheckpoint {
			t.Fatalf("after %d saves: %v", n, err)
		}
		assertResult(t, res)
	}
}

// A run renews its lease while it waits on a tool or the model for longer
// than the lease: a second request on the thread meanwhile gets
// THREAD_BUSY, and nothing runs twice.
func TestCheckpointLeaseRenewedWhileWaiting(t *testing.T) {
	slowTool := func(t *testing.T) (*Agent, *atomic.Int64) {
		var runs atomic.Int64
		slow, err := NewTool("slow", "", func(ctx context.Context, in workArgs) (string, error) {
			runs.Add(1)
			time.Sleep(10 * time.Second)
			return "done", nil
		})
		if err != nil {
			t.Fatal(err)
		}
		p := Script(Turn{Calls: []ScriptedCall{{ID: "c1", Name: "slow", Args: `{"id":"c1"}`}}}, Turn{Text: "ok"}, Turn{Text: "ok"})
		return mustNew(t, p, WithTools(slow), WithLease(time.Second)), &runs
	}
	slowModel := func(t *testing.T) (*Agent, *atomic.Int64) {
		var runs atomic.Int64
		p := ProviderFunc(func(ctx context.Context, _ ModelRequest) iter.Seq2[Delta, error] {
			return func(yield func(Delta, error) bool) {
				runs.Add(1)
				time.Sleep(10 * time.Second)
				yield(Delta{Text: "thought long"}, nil)
			}
		})
		return mustNew(t, p, WithLease(time.Second)), &runs
	}
	for name, build := range map[string]func(*testing.T) (*Agent, *atomic.Int64){"tool": slowTool, "model": slowModel} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				a, runs := build(t)
				x := goExecute(t.Context(), a, Input{ThreadID: "t", Messages: []agui.Message{UserText("one")}})
				time.Sleep(5 * time.Second) // five leases into the slow wait
				_, err := a.Execute(t.Context(), Input{ThreadID: "t", Messages: []agui.Message{UserText("two")}})
				if agui.CodeOf(err) != CodeBusy {
					t.Errorf("second request during the wait: %v, want %s", err, CodeBusy)
				}
				res, err := x.wait()
				if err != nil || res.FinishReason != FinishStop {
					t.Fatalf("first request: %s %v", res.FinishReason, err)
				}
				assertResult(t, res)
				if n := runs.Load(); n != 1 {
					t.Fatalf("ran %d times, want 1", n)
				}
			})
		})
	}
}

// A run whose renewal fails has lost its thread: it starts no new call, no
// model turn is recorded, and it fails with THREAD_BUSY.
func TestCheckpointLeaseLost(t *testing.T) {
	slowTools := func(t *testing.T, store Store) (*Agent, *atomic.Int64) {
		var runs atomic.Int64
		slow, err := NewTool("slow", "", func(ctx context.Context, in workArgs) (string, error) {
			runs.Add(1)
			time.Sleep(10 * time.Second)
			return "done", nil
		})
		if err != nil {
			t.Fatal(err)
		}
		calls := []ScriptedCall{{ID: "c1", Name: "slow", Args: `{"id":"c1"}`}, {ID: "c2", Name: "slow", Args: `{"id":"c2"}`}}
		return mustNew(t, Script(Turn{Calls: calls}, Turn{Text: "ok"}), WithTools(slow), WithToolConcurrency(1), WithLease(time.Second), WithCheckpoints(store)), &runs
	}
	slowModel := func(t *testing.T, store Store) (*Agent, *atomic.Int64) {
		var runs atomic.Int64
		p := ProviderFunc(func(ctx context.Context, _ ModelRequest) iter.Seq2[Delta, error] {
			return func(yield func(Delta, error) bool) {
				runs.Add(1)
				if !yield(Delta{Text: "thinking"}, nil) {
					return
				}
				select {
				case <-time.After(10 * time.Second):
					yield(Delta{Text: " long"}, nil)
				case <-ctx.Done(): // the lost run stops the model
					yield(Delta{}, ctx.Err())
				}
			}
		})
		return mustNew(t, p, WithLease(time.Second), WithCheckpoints(store)), &runs
	}
	for name, build := range map[string]func(*testing.T, Store) (*Agent, *atomic.Int64){"tool": slowTools, "model": slowModel} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				store := NewMemoryStore()
				a, runs := build(t, store)
				x := goExecute(t.Context(), a, Input{ThreadID: "t", Messages: []agui.Message{UserText("one")}})
				time.Sleep(5 * time.Second)
				// Another process writes the thread (say, after a stalled
				// store let the lease run out).
				cp, v, err := store.Load(t.Context(), "t")
				if err != nil {
					t.Fatal(err)
				}
				if _, err := store.Save(t.Context(), cp, v, 0); err != nil {
					t.Fatal(err)
				}
				res, err := x.wait()
				if agui.CodeOf(err) != CodeBusy {
					t.Fatalf("%s %v, want %s", res.FinishReason, err, CodeBusy)
				}
				assertResult(t, res)
				if n := runs.Load(); n != 1 {
					t.Fatalf("ran %d times: nothing new starts once the thread is lost", n)
				}
				if after, _, _ := store.Load(t.Context(), "t"); len(after.Messages) != len(cp.Messages) {
					t.Fatalf("the lost run wrote the thread:\n%s", dump(after.Messages))
				}
			})
		})
	}
}
