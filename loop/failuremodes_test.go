package loop

// One test per failure mode that other agent loops are known for, each showing the loop
// does not have it.

import (
	"context"
	"errors"
	"iter"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/agui-go/agui"
)

// requests records every transcript the loop sends its provider, checking
// each with the transcript invariant, then delegates to p.
type requests struct {
	t  *testing.T
	p  Provider
	mu sync.Mutex
	rs [][]agui.Message
}

func (r *requests) Stream(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
	r.mu.Lock()
	r.rs = append(r.rs, slices.Clone(req.Messages))
	r.mu.Unlock()
	if err := checkTranscript(req.Messages, false); err != nil {
		r.t.Errorf("provider got an invalid transcript: %v\n%s", err, dump(req.Messages))
	}
	return r.p.Stream(ctx, req)
}

// 1. Dangling tool calls after an abort or interrupt wedge the session:
// after an abort mid-batch and after an approval rejection, every request
// the provider gets answers every call.
func TestFailureMode01NoDanglingCalls(t *testing.T) {
	b := newBlocker()
	inner := Script(Turn{Calls: workCalls("c1", "c2", "c3")}, Turn{Text: "ok"})
	p := &requests{t: t, p: inner}
	// The second user message replays the same script, whose call ids the
	// loop renames (they are taken); the approval goes by arguments.
	a := mustNew(t, p, WithTools(b.tool(t)), WithToolConcurrency(1), WithNeedsApproval(func(c Call) bool { return strings.Contains(string(c.Args), "c3") }))
	ctx, cancel := context.WithCancel(t.Context())
	x := goExecute(ctx, a, user("one"))
	<-b.started
	cancel()
	res, _ := x.wait()
	assertResult(t, res)
	// The next message: the model is asked again (turn 1 of the new user
	// message) and pauses on c3; rejecting it still leaves no call open.
	b.release("c1")
	b.release("c2")
	res, err := a.Execute(t.Context(), Input{ThreadID: res.ThreadID, Messages: []agui.Message{UserText("two")}})
	if err != nil || res.FinishReason != FinishAwaitingApproval {
		t.Fatalf("%s %v", res.FinishReason, err)
	}
	res, err = a.Execute(t.Context(), Input{ThreadID: res.ThreadID, Resume: approve(res.Interrupt, false)})
	if err != nil || res.FinishReason != FinishStop {
		t.Fatalf("%s %v", res.FinishReason, err)
	}
	assertResult(t, res)
	if len(p.rs) != 3 {
		t.Fatalf("%d provider requests", len(p.rs))
	}
}

// 2. Tools left running detached after cancel or sibling failure: a tool
// that ignores its context still finishes before Execute returns, and its
// real result is recorded (goleak checks no goroutine outlives the tests).
func TestFailureMode02NoDetachedTools(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{})
	stubborn, err := NewTool("stubborn", "ignores cancellation", func(ctx context.Context, in workArgs) (string, error) {
		close(started)
		<-release
		return "finished anyway", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	a := mustNew(t, Script(Turn{Calls: []ScriptedCall{{ID: "c1", Name: "stubborn", Args: `{"id":"c1"}`}}}), WithTools(stubborn))
	ctx, cancel := context.WithCancel(t.Context())
	x := goExecute(ctx, a, user("go"))
	<-started
	cancel()
	select {
	case <-x.done:
		t.Fatal("Execute returned while a tool was still running")
	default:
	}
	close(release)
	res, err := x.wait()
	if err != nil || res.FinishReason != FinishAborted {
		t.Fatalf("%s %v", res.FinishReason, err)
	}
	if r := results(res.Messages); r["c1"] != "finished anyway" {
		t.Fatalf("result %v: the run did not wait for the tool", r)
	}
}

// 3. The abort signal never reaches tools or sub-agents: both see it.
func TestFailureMode03AbortReachesToolsAndSubagents(t *testing.T) {
	TestCancelMidBatch(t)
	TestDelegateCancelledWithParent(t)
}

// 4. Parallel results recorded in completion order: the provider's next
// request has them in call order although they finished in reverse.
func TestFailureMode04ResultsInCallOrder(t *testing.T) {
	b := newBlocker()
	p := &requests{t: t, p: Script(Turn{Calls: workCalls("c1", "c2", "c3")}, Turn{Text: "ok"})}
	a := mustNew(t, p, WithTools(b.tool(t)))
	rec := &recorder{results: make(chan string, 8)}
	in := user("go")
	in.OnEvent = rec.on
	x := goExecute(t.Context(), a, in)
	for range 3 {
		<-b.started
	}
	for _, id := range []string{"c3", "c2", "c1"} {
		b.release(id)
		<-rec.results
	}
	if _, err := x.wait(); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range p.rs[1] {
		if tm, ok := m.(*agui.ToolMessage); ok {
			ids = append(ids, tm.ToolCallID)
		}
	}
	if !slices.Equal(ids, []string{"c1", "c2", "c3"}) {
		t.Fatalf("second request's results %v", ids)
	}
}

// 5. One failing tool collapses the batch: siblings' results are kept and
// the model answers.
func TestFailureMode05FailureDoesNotCollapseBatch(t *testing.T) {
	failing, _ := NewTool("fail", "", func(context.Context, workArgs) (string, error) { return "", errors.New("boom") })
	calls := []ScriptedCall{{ID: "c1", Name: "echo", Args: `{"id":"c1"}`}, {ID: "c2", Name: "fail", Args: `{"id":"c2"}`}, {ID: "c3", Name: "echo", Args: `{"id":"c3"}`}}
	a := mustNew(t, Script(Turn{Calls: calls}, Turn{Text: "answer"}), WithTools(echoTool(t), failing))
	res, err := a.Execute(t.Context(), user("go"))
	if err != nil || res.FinishReason != FinishStop || finalText(res.Messages) != "answer" {
		t.Fatalf("%s %v", res.FinishReason, err)
	}
	if r := results(res.Messages); r["c1"] != "echo c1" || r["c3"] != "echo c3" {
		t.Fatalf("results %v", r)
	}
}

// 6. Resume re-runs side effects: after Ctrl+C mid-batch, the next message
// does not run the finished call again.
func TestFailureMode06ResumeDoesNotRerun(t *testing.T) {
	var runs atomic.Int64
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	effect, _ := NewTool("effect", "", func(_ context.Context, in workArgs) (string, error) {
		runs.Add(1)
		if in.ID == "c2" {
			cancel() // Ctrl+C while the batch runs
		}
		return "did " + in.ID, nil
	})
	calls := []ScriptedCall{{ID: "c1", Name: "effect", Args: `{"id":"c1"}`}, {ID: "c2", Name: "effect", Args: `{"id":"c2"}`}, {ID: "c3", Name: "effect", Args: `{"id":"c3"}`}}
	first := Script(Turn{Calls: calls})
	a := mustNew(t, ProviderFunc(func(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
		if len(req.Messages) > 1 {
			return Script(Turn{Text: "fine"}).Stream(ctx, req)
		}
		return first.Stream(ctx, req)
	}), WithTools(effect), WithToolConcurrency(1))
	res, _ := a.Execute(ctx, user("go"))
	if res.FinishReason != FinishAborted || runs.Load() != 2 {
		t.Fatalf("%s after %d runs", res.FinishReason, runs.Load())
	}
	res, err := a.Execute(t.Context(), Input{ThreadID: res.ThreadID, Messages: []agui.Message{UserText("next")}})
	if err != nil || res.FinishReason != FinishStop || runs.Load() != 2 {
		t.Fatalf("%s %v after %d runs", res.FinishReason, err, runs.Load())
	}
	assertResult(t, res)
}

// 7. Approval flows that lose or double-spend a decision: a bad answer
// does not consume the approval, the good one runs the call once, and a
// replay is refused.
func TestFailureMode07DecisionExactlyOnce(t *testing.T) {
	b := newBlocker()
	for _, id := range []string{"c1", "c2", "c3", "c4"} {
		b.release(id)
	}
	a, _ := approvalAgent(t, b)
	res, _ := a.Execute(t.Context(), user("go"))
	bad := []agui.ResumeEntry{{InterruptID: res.Interrupt.ID, Status: agui.ResumeResolved, Payload: map[string]any{"ok": 1}}}
	if _, err := a.Execute(t.Context(), Input{ThreadID: res.ThreadID, Resume: bad}); agui.CodeOf(err) != CodeBadResume {
		t.Fatalf("bad answer: %v", err)
	}
	if _, err := a.Execute(t.Context(), Input{ThreadID: res.ThreadID, Resume: approve(res.Interrupt, true)}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Execute(t.Context(), Input{ThreadID: res.ThreadID, Resume: approve(res.Interrupt, true)}); agui.CodeOf(err) != CodeBadResume {
		t.Fatalf("replay: %v", err)
	}
	if b.runs.Load() != 4 {
		t.Fatalf("%d runs", b.runs.Load())
	}
	TestApprovalConcurrentResume(t)
}

// 8. Max steps ends in silence or with a misleading reason: it is a
// successful run saying max-steps, and an answer on the last step says
// stop.
func TestFailureMode08MaxStepsSaysSo(t *testing.T) {
	TestFinishMaxSteps(t)
	TestFinishStopOnLastStepIsNotMaxSteps(t)
}

// 9. Retry or fallback fires on a user abort: neither does.
func TestFailureMode09NoRetryOnAbort(t *testing.T) {
	TestRetryNeverRetriesAnAbort(t)
	TestFallbackNeverOnAbort(t)
	TestRetryInRunAbortsOnce(t)
}

// 10. Unbounded delegation: the depth guard fails the run.
func TestFailureMode10DelegationDepth(t *testing.T) {
	TestDelegateDepthGuard(t)
}
