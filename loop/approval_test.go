package loop

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/agui-go/agui"
)

// approvalAgent: calls c1..c4 of the work tool; c3 needs approval.
func approvalAgent(t *testing.T, b *blocker, opts ...Option) (*Agent, *Scripted) {
	t.Helper()
	p := Script(Turn{Calls: workCalls("c1", "c2", "c3", "c4")}, Turn{Text: "all done"})
	opts = append([]Option{WithTools(b.tool(t)), WithToolConcurrency(4), WithNeedsApproval(func(c Call) bool { return c.ID == "c3" })}, opts...)
	return mustNew(t, p, opts...), p
}

func approve(in *agui.Interrupt, ok bool) []agui.ResumeEntry {
	return []agui.ResumeEntry{{InterruptID: in.ID, Status: agui.ResumeResolved, Payload: json.RawMessage(`{"approved":` + map[bool]string{true: "true", false: "false"}[ok] + `,"reason":"because"}`)}}
}

// Approvals: "The first call that needs approval stops the
// batch: the calls before it run (concurrently) and their results are
// recorded, then the run pauses on that call (finishReason:
// 'awaiting-approval'). Calls after it never start in this run."
func TestApprovalStopsBatch(t *testing.T) {
	b := newBlocker()
	a, _ := approvalAgent(t, b)
	rec := &recorder{}
	in := user("go")
	in.OnEvent = rec.on
	x := goExecute(t.Context(), a, in)
	<-b.started
	<-b.started // c1 and c2 run concurrently
	b.release("c1")
	b.release("c2")
	res, err := x.wait()
	if err != nil {
		t.Fatal(err)
	}
	if res.FinishReason != FinishAwaitingApproval {
		t.Fatalf("finish %s", res.FinishReason)
	}
	assertResult(t, res)
	if r := results(res.Messages); len(r) != 2 || r["c1"] != "done c1" || r["c2"] != "done c2" {
		t.Fatalf("recorded results %v", r)
	}
	if b.runs.Load() != 2 {
		t.Fatalf("%d tool runs, want 2 (c3, c4 never start)", b.runs.Load())
	}
	in3 := res.Interrupt
	if in3 == nil || in3.Reason != ReasonToolApproval || in3.ToolCallID != "c3" || in3.ID == "" || in3.ResponseSchema == nil {
		t.Fatalf("interrupt %+v", in3)
	}
	// c3's call events went out (the user sees what to approve); c4's did not.
	if got := rec.trace(); slices.Contains(got, "call:c4") || !slices.Contains(got, "call:c3") {
		t.Fatalf("events %v", got)
	}
}

// "resumeAfterApproval() records the paused call's result (or
// rejection) and then runs those later calls the same way, so every call
// of the turn gets exactly one result."
func TestApprovalResumeRunsPausedThenLaterCalls(t *testing.T) {
	for _, ok := range []bool{true, false} {
		t.Run(map[bool]string{true: "approved", false: "rejected"}[ok], func(t *testing.T) {
			b := newBlocker()
			for _, id := range []string{"c1", "c2", "c3", "c4"} {
				b.release(id)
			}
			a, p := approvalAgent(t, b)
			res, err := a.Execute(t.Context(), user("go"))
			if err != nil || res.FinishReason != FinishAwaitingApproval {
				t.Fatalf("first run: %v %v", res.FinishReason, err)
			}
			rec := &recorder{}
			res2, err := a.Execute(t.Context(), Input{ThreadID: res.ThreadID, Resume: approve(res.Interrupt, ok), OnEvent: rec.on})
			if err != nil {
				t.Fatal(err)
			}
			assertResult(t, res2)
			if res2.FinishReason != FinishStop {
				t.Fatalf("finish %s", res2.FinishReason)
			}
			kinds := errorKinds(res2.Messages)
			if ok && kinds["c3"] != "" || !ok && kinds["c3"] != KindRejected || kinds["c4"] != "" {
				t.Fatalf("kinds %v", kinds)
			}
			wantRuns := map[bool]int64{true: 4, false: 3}[ok]
			if b.runs.Load() != wantRuns {
				t.Fatalf("%d tool runs, want %d", b.runs.Load(), wantRuns)
			}
			// Two model turns in all: the resume did not re-ask for turn 1.
			if p.Calls() != 2 {
				t.Fatalf("%d model calls, want 2", p.Calls())
			}
			// The paused call's events are sent again, since AG-UI wants a
			// result to name a call of its own run; then c4's.
			if got := rec.trace(); got[0] != "call:c3" || !slices.Contains(got, "result:c3") || !slices.Contains(got, "call:c4") {
				t.Fatalf("resume events %v", got)
			}
		})
	}
}

// A cancelled resume entry rejects the call.
func TestApprovalCancelledResumeRejects(t *testing.T) {
	b := newBlocker()
	for _, id := range []string{"c1", "c2", "c4"} {
		b.release(id)
	}
	a, _ := approvalAgent(t, b)
	res, _ := a.Execute(t.Context(), user("go"))
	res2, err := a.Execute(t.Context(), Input{ThreadID: res.ThreadID, Resume: []agui.ResumeEntry{{InterruptID: res.Interrupt.ID, Status: agui.ResumeCancelled}}})
	if err != nil {
		t.Fatal(err)
	}
	assertResult(t, res2)
	if k := errorKinds(res2.Messages); k["c3"] != KindRejected {
		t.Fatalf("kinds %v", k)
	}
}

// A bad resume gets a stable code before anything runs: no tool, no
// model call, and the thread still waits for a good answer.
func TestApprovalBadResume(t *testing.T) {
	cases := map[string]func(in *agui.Interrupt) []agui.ResumeEntry{
		"missing": func(*agui.Interrupt) []agui.ResumeEntry { return nil },
		"unknown id": func(*agui.Interrupt) []agui.ResumeEntry {
			return []agui.ResumeEntry{{InterruptID: "nope", Status: agui.ResumeResolved, Payload: map[string]any{"approved": true}}}
		},
		"payload not an answer": func(in *agui.Interrupt) []agui.ResumeEntry {
			return []agui.ResumeEntry{{InterruptID: in.ID, Status: agui.ResumeResolved, Payload: json.RawMessage(`{"approved":"yes"}`)}}
		},
		"bad status": func(in *agui.Interrupt) []agui.ResumeEntry {
			return []agui.ResumeEntry{{InterruptID: in.ID, Status: "maybe", Payload: map[string]any{"approved": true}}}
		},
		"twice": func(in *agui.Interrupt) []agui.ResumeEntry {
			e := agui.ResumeEntry{InterruptID: in.ID, Status: agui.ResumeResolved, Payload: map[string]any{"approved": true}}
			return []agui.ResumeEntry{e, e}
		},
	}
	for name, resume := range cases {
		t.Run(name, func(t *testing.T) {
			b := newBlocker()
			for _, id := range []string{"c1", "c2", "c3", "c4"} {
				b.release(id)
			}
			a, p := approvalAgent(t, b)
			res, _ := a.Execute(t.Context(), user("go"))
			runs, calls := b.runs.Load(), p.Calls()
			_, err := a.Execute(t.Context(), Input{ThreadID: res.ThreadID, Resume: resume(res.Interrupt)})
			if agui.CodeOf(err) != CodeBadResume {
				t.Fatalf("err %v (code %s), want %s", err, agui.CodeOf(err), CodeBadResume)
			}
			if b.runs.Load() != runs || p.Calls() != calls {
				t.Fatal("a bad resume ran something")
			}
			// The good answer still works.
			res2, err := a.Execute(t.Context(), Input{ThreadID: res.ThreadID, Resume: approve(res.Interrupt, true)})
			if err != nil || res2.FinishReason != FinishStop {
				t.Fatalf("good resume after bad: %v %v", res2.FinishReason, err)
			}
			assertResult(t, res2)
		})
	}
}

// Resume on a thread with nothing pending is a bad resume.
func TestApprovalResumeWithoutPending(t *testing.T) {
	a := mustNew(t, Script(Turn{Text: "hi"}))
	_, err := a.Execute(t.Context(), Input{ThreadID: "t", Resume: []agui.ResumeEntry{{InterruptID: "x", Status: agui.ResumeCancelled}}})
	if agui.CodeOf(err) != CodeBadResume {
		t.Fatalf("err %v", err)
	}
}

// A repeated resume never executes a tool twice.
func TestApprovalRepeatedResumeNeverExecutesTwice(t *testing.T) {
	b := newBlocker()
	for _, id := range []string{"c1", "c2", "c3", "c4"} {
		b.release(id)
	}
	a, _ := approvalAgent(t, b)
	res, _ := a.Execute(t.Context(), user("go"))
	if _, err := a.Execute(t.Context(), Input{ThreadID: res.ThreadID, Resume: approve(res.Interrupt, true)}); err != nil {
		t.Fatal(err)
	}
	_, err := a.Execute(t.Context(), Input{ThreadID: res.ThreadID, Resume: approve(res.Interrupt, true)})
	if agui.CodeOf(err) != CodeBadResume {
		t.Fatalf("replayed resume: %v", err)
	}
	if b.runs.Load() != 4 {
		t.Fatalf("%d tool runs, want 4", b.runs.Load())
	}
}

// barrierStore makes n Loads of a thread wait for each other, so that n
// concurrent runs all read the same version before any writes.
type barrierStore struct {
	*MemoryStore
	wg sync.WaitGroup
}

func (s *barrierStore) Load(ctx context.Context, thread string) (*Checkpoint, int64, error) {
	cp, v, err := s.MemoryStore.Load(ctx, thread)
	s.wg.Done()
	s.wg.Wait()
	return cp, v, err
}

// Two resumes at once: one proceeds, the other gets THREAD_BUSY; the
// approved call runs once.
func TestApprovalConcurrentResume(t *testing.T) {
	b := newBlocker()
	for _, id := range []string{"c1", "c2", "c3", "c4"} {
		b.release(id)
	}
	store := &barrierStore{MemoryStore: NewMemoryStore()}
	a, _ := approvalAgent(t, b, WithCheckpoints(store))
	store.wg.Add(1)
	res, _ := a.Execute(t.Context(), user("go"))
	store.wg.Add(2)
	x1 := goExecute(t.Context(), a, Input{ThreadID: res.ThreadID, Resume: approve(res.Interrupt, true)})
	x2 := goExecute(t.Context(), a, Input{ThreadID: res.ThreadID, Resume: approve(res.Interrupt, true)})
	_, err1 := x1.wait()
	_, err2 := x2.wait()
	errs := []error{err1, err2}
	slices.SortFunc(errs, func(a, b error) int {
		return map[bool]int{true: 0, false: 1}[a == nil] - map[bool]int{true: 0, false: 1}[b == nil]
	})
	if errs[0] != nil || agui.CodeOf(errs[1]) != CodeBusy {
		t.Fatalf("errors %v, %v: want one nil and one %s", err1, err2, CodeBusy)
	}
	if b.runs.Load() != 4 {
		t.Fatalf("%d tool runs, want 4", b.runs.Load())
	}
}

// The interrupt's answer is checked against its responseSchema shape.
func TestApprovalInterruptSchema(t *testing.T) {
	s := approvalSchema()
	if s["type"] != "object" || !slices.Equal(s["required"].([]any), []any{"approved"}) {
		t.Fatalf("schema %v", s)
	}
	_, err := decide(&PendingApproval{InterruptID: "i"}, []agui.ResumeEntry{{InterruptID: "i", Status: agui.ResumeResolved, Payload: map[string]any{"approved": true, "reason": "ok"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := decide(&PendingApproval{InterruptID: "i"}, []agui.ResumeEntry{{InterruptID: "i", Status: agui.ResumeResolved, Payload: func() {}}}); !errors.As(err, new(*agui.Error)) {
		t.Fatalf("unmarshalable payload: %v", err)
	}
}

// A generic AG-UI client answers an interrupt with its status alone.
func TestApprovalStatusAloneDecides(t *testing.T) {
	p := &PendingApproval{InterruptID: "i"}
	d, err := decide(p, []agui.ResumeEntry{{InterruptID: "i", Status: agui.ResumeResolved}})
	if err != nil || !d.Approved {
		t.Fatalf("resolved without payload: %+v, %v; want approved", d, err)
	}
	d, err = decide(p, []agui.ResumeEntry{{InterruptID: "i", Status: agui.ResumeCancelled}})
	if err != nil || d.Approved {
		t.Fatalf("cancelled: %+v, %v; want rejected", d, err)
	}
	if _, err := decide(p, []agui.ResumeEntry{{InterruptID: "i", Status: agui.ResumeResolved, Payload: json.RawMessage(`{"approved":"yes"}`)}}); agui.CodeOf(err) != CodeBadResume {
		t.Fatalf("malformed payload: %v; want %s", err, CodeBadResume)
	}
}

// A batch that pauses for approval but then aborts or fails (a call
// running before the paused one) ends idle, with no stale approval left
// in its checkpoint.
func TestApprovalAbortedOrFailedBatchLeavesNoPending(t *testing.T) {
	for _, end := range []string{"abort", "fail"} {
		t.Run(end, func(t *testing.T) {
			store := NewMemoryStore()
			asked := make(chan struct{})
			finish := make(chan error)
			hold, err := NewTool("hold", "", func(ctx context.Context, in workArgs) (string, error) {
				select {
				case err := <-finish:
					return "", err
				case <-ctx.Done():
					return "", ctx.Err()
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			calls := []ScriptedCall{{ID: "c1", Name: "hold", Args: `{"id":"c1"}`}, {ID: "c2", Name: "hold", Args: `{"id":"c2"}`}}
			a := mustNew(t, Script(Turn{Calls: calls}), WithTools(hold), WithCheckpoints(store),
				WithNeedsApproval(func(c Call) bool {
					if c.ID == "c2" {
						close(asked)
						return true
					}
					return false
				}))
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			x := goExecute(ctx, a, Input{ThreadID: "t", Messages: []agui.Message{UserText("go")}})
			<-asked // c1 runs, c2 pauses the batch
			if end == "abort" {
				cancel()
			} else {
				finish <- Propagate(errors.New("disk on fire"))
			}
			res, err := x.wait()
			if res.FinishReason == FinishAwaitingApproval {
				t.Fatalf("finish %s %v", res.FinishReason, err)
			}
			assertResult(t, res)
			cp, _, err := store.Load(t.Context(), "t")
			if err != nil || cp.Status != StatusIdle || cp.Pending != nil {
				t.Fatalf("checkpoint status %s, pending %+v (%v)", cp.Status, cp.Pending, err)
			}
		})
	}
}
