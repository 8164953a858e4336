package loop

import (
	"context"
	"slices"
	"testing"
	"testing/synctest"
	"time"
)

// infoTool records the CallInfo of each call; calls named in hold block
// until their context ends.
func infoTool(t *testing.T, log *journal, started chan string, hold ...string) Tool {
	t.Helper()
	tool, err := NewTool("work", "", func(ctx context.Context, in workArgs) (string, error) {
		ci, ok := CallFrom(ctx)
		if !ok {
			t.Error("a tool's context has no CallInfo")
		}
		log.add("%s %s #%d", ci.ID, ci.Name, ci.Attempt)
		if started != nil {
			started <- ci.ID
		}
		if slices.Contains(hold, in.ID) {
			<-ctx.Done()
			return "", ctx.Err()
		}
		return "done", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

// A tool reads its call from its context. The process dies while c2 runs
// (c1 recorded); the run that takes the thread over after the lease runs
// c2 and c3 again as attempt 2; a second crash makes them attempt 3.
func TestCallFromAttemptsAfterLostLease(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// crash runs the thread's pending calls on a copy of cp until c2
		// has started, then returns the last checkpoint saved.
		crash := func(cp *Checkpoint, log *journal) Checkpoint {
			store := &savesStore{MemoryStore: NewMemoryStore()}
			if cp != nil {
				if _, err := store.Save(t.Context(), cp, 0, 0); err != nil {
					t.Fatal(err)
				}
			}
			started := make(chan string, 8)
			p := Script(Turn{Calls: workCalls("c1", "c2", "c3")}, Turn{Text: "ok"})
			a := mustNew(t, p, WithTools(infoTool(t, log, started, "c2")), WithToolConcurrency(1), WithCheckpoints(store), WithLease(time.Minute))
			ctx, cancel := context.WithCancel(t.Context())
			in := user("go")
			if cp != nil {
				in = Input{ThreadID: cp.ThreadID}
			}
			x := goExecute(ctx, a, in)
			for id := range started {
				if id == "c2" {
					break
				}
			}
			saves := store.list()
			last := saves[len(saves)-1]
			cancel()
			x.wait()
			time.Sleep(time.Minute) // the dead run's lease runs out
			return last
		}
		first := &journal{}
		cp := crash(nil, first)
		if got := first.list(); !slices.Equal(got, []string{"c1 work #1", "c2 work #1"}) {
			t.Fatalf("first run: %v", got)
		}
		second := &journal{}
		cp = crash(&cp, second)
		if got := second.list(); !slices.Equal(got, []string{"c2 work #2"}) {
			t.Fatalf("second run: %v", got)
		}
		third := &journal{}
		store := NewMemoryStore()
		if _, err := store.Save(t.Context(), &cp, 0, 0); err != nil {
			t.Fatal(err)
		}
		a := mustNew(t, Script(Turn{Calls: workCalls("c1", "c2", "c3")}, Turn{Text: "ok"}), WithTools(infoTool(t, third, nil)), WithCheckpoints(store), WithLease(time.Minute))
		res, err := a.Execute(t.Context(), Input{ThreadID: cp.ThreadID})
		if err != nil {
			t.Fatal(err)
		}
		assertResult(t, res)
		got := third.list()
		slices.Sort(got)
		if !slices.Equal(got, []string{"c2 work #3", "c3 work #3"}) {
			t.Fatalf("third run: %v", got)
		}
		if res.FinishReason != FinishStop {
			t.Fatalf("finish %s", res.FinishReason)
		}
		saved, _, err := store.Load(t.Context(), cp.ThreadID)
		if err != nil {
			t.Fatal(err)
		}
		if saved.Attempts != nil {
			t.Fatalf("attempts kept after a new turn: %v", saved.Attempts)
		}
	})
}

// Resuming after an approval is no new attempt: the paused call had not
// started.
func TestCallFromApprovalIsFirstAttempt(t *testing.T) {
	log := &journal{}
	a := mustNew(t, Script(Turn{Calls: workCalls("c1")}, Turn{Text: "ok"}), WithTools(infoTool(t, log, nil)),
		WithNeedsApproval(func(Call) bool { return true }))
	res, err := a.Execute(t.Context(), user("go"))
	if err != nil || res.Interrupt == nil {
		t.Fatalf("%v %v", res.FinishReason, err)
	}
	res, err = a.Execute(t.Context(), Input{ThreadID: res.ThreadID, Resume: approve(res.Interrupt, true)})
	if err != nil {
		t.Fatal(err)
	}
	if got := log.list(); !slices.Equal(got, []string{"c1 work #1"}) {
		t.Fatalf("calls: %v", got)
	}
}

func TestCallFromOutsideATool(t *testing.T) {
	if _, ok := CallFrom(context.Background()); ok {
		t.Fatal("CallInfo outside a tool call")
	}
}
