package loop

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/agui-go/agui"
)

// Parallel tool calls: "Transcript order is call order. Tool
// results are appended in the order the model requested the calls, not the
// order they finish."
func TestParallelTranscriptIsCallOrder(t *testing.T) {
	b := newBlocker()
	p := Script(Turn{Calls: workCalls("c1", "c2", "c3")}, Turn{Text: "ok"})
	a := mustNew(t, p, WithTools(b.tool(t)), WithToolConcurrency(4))
	rec := &recorder{results: make(chan string, 8)}
	in := user("go")
	in.OnEvent = rec.on
	x := goExecute(t.Context(), a, in)
	for range 3 {
		<-b.started
	}
	// Finish in reverse order, each release waiting for the previous
	// result, so the completion order is fixed.
	for _, id := range []string{"c3", "c2", "c1"} {
		b.release(id)
		if got := <-rec.results; got != id {
			t.Fatalf("result for %s, want %s", got, id)
		}
	}
	res, err := x.wait()
	if err != nil {
		t.Fatal(err)
	}
	assertResult(t, res)
	if res.FinishReason != FinishStop {
		t.Fatalf("finish = %s", res.FinishReason)
	}
	// The model's second request saw the results in call order (the
	// transcript check above), while events came in completion order.
	got := rec.trace()
	want := []string{"call:c1", "call:c2", "call:c3", "result:c3", "result:c2", "result:c1"}
	if !slices.Equal(got, want) {
		t.Fatalf("events %v, want %v", got, want)
	}
}

// "Calls start in call order. A call's tool-call event,
// onToolCall, argument validation, preToolCall hooks and needsApproval
// check run just before it starts, one call at a time."
//
// Events reach OnEvent from the run's stream, after they were emitted, so
// each call's WithOnToolCall first waits for its TOOL_CALL_START to arrive:
// it arrives only if it was emitted before the hook ran, and the journal
// then holds the order things happened in.
func TestParallelGateRunsJustBeforeStartInCallOrder(t *testing.T) {
	j := &journal{}
	var tool Tool
	tool, err := NewTool("rec", "records", func(ctx context.Context, in workArgs) (string, error) {
		j.add("start %s", in.ID)
		return in.ID, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	calls := []ScriptedCall{
		{ID: "c1", Name: "rec", Args: `{"id":"c1"}`},
		{ID: "c2", Name: "rec", Args: `{"id":"c2"}`},
		{ID: "c3", Name: "rec", Args: `{"id":"c3"}`},
	}
	started := map[string]chan struct{}{}
	for _, c := range calls {
		started[c.ID] = make(chan struct{})
	}
	a := mustNew(t, Script(Turn{Calls: calls}, Turn{Text: "ok"}), WithTools(tool), WithToolConcurrency(1),
		WithOnToolCall(func(_ context.Context, c Call) {
			select {
			case <-started[c.ID]:
			case <-time.After(time.Minute): // a bound on failure, not a wait for success
				t.Errorf("OnToolCall of %s ran before its TOOL_CALL_START was emitted", c.ID)
			}
			j.add("onToolCall %s", c.ID)
		}),
		WithPreToolCall(func(_ context.Context, c Call) error { j.add("preToolCall %s", c.ID); return nil }),
		WithNeedsApproval(func(c Call) bool { j.add("needsApproval %s", c.ID); return false }),
	)
	in := user("go")
	in.OnEvent = func(ev agui.Event) error {
		switch e := ev.(type) {
		case *agui.ToolCallStart:
			j.add("event %s", e.ToolCallID)
			close(started[e.ToolCallID])
		case *agui.ToolCallResult:
			j.add("result %s", e.ToolCallID)
		}
		return nil
	}
	res, err := a.Execute(t.Context(), in)
	if err != nil {
		t.Fatal(err)
	}
	assertResult(t, res)
	var want []string
	for _, id := range []string{"c1", "c2", "c3"} {
		want = append(want, "event "+id, "onToolCall "+id, "preToolCall "+id, "needsApproval "+id, "start "+id, "result "+id)
	}
	if got := j.list(); !slices.Equal(got, want) {
		t.Fatalf("order\n got %v\nwant %v", got, want)
	}
}

// toolConcurrency N means "at most N tool calls of a turn in
// flight".
func TestParallelConcurrencyLimit(t *testing.T) {
	b := newBlocker()
	ids := []string{"c1", "c2", "c3", "c4", "c5"}
	a := mustNew(t, Script(Turn{Calls: workCalls(ids...)}, Turn{Text: "ok"}), WithTools(b.tool(t)), WithToolConcurrency(2))
	x := goExecute(t.Context(), a, user("go"))
	for range ids {
		b.release(<-b.started)
	}
	res, err := x.wait()
	if err != nil {
		t.Fatal(err)
	}
	assertResult(t, res)
	if m := b.maxSeen.Load(); m > 2 {
		t.Fatalf("%d calls in flight, limit 2", m)
	}
}

// The limit is reached, not just respected: with N=3 and 3 blocked calls,
// all three run at once.
func TestParallelConcurrencyReachesLimit(t *testing.T) {
	b := newBlocker()
	a := mustNew(t, Script(Turn{Calls: workCalls("c1", "c2", "c3")}, Turn{Text: "ok"}), WithTools(b.tool(t)), WithToolConcurrency(3))
	x := goExecute(t.Context(), a, user("go"))
	for range 3 {
		<-b.started // all three start before any is released
	}
	for _, id := range []string{"c1", "c2", "c3"} {
		b.release(id)
	}
	res, err := x.wait()
	if err != nil {
		t.Fatal(err)
	}
	assertResult(t, res)
	if m := b.maxSeen.Load(); m != 3 {
		t.Fatalf("max in flight %d, want 3", m)
	}
}

// "With toolConcurrency: 1 events alternate call/result exactly
// as before."
func TestParallelConcurrencyOneAlternates(t *testing.T) {
	a := mustNew(t, Script(Turn{Calls: echoCalls("c1", "c2", "c3")}, Turn{Text: "ok"}), WithTools(echoTool(t)), WithToolConcurrency(1))
	rec := &recorder{}
	in := user("go")
	in.OnEvent = rec.on
	res, err := a.Execute(t.Context(), in)
	if err != nil {
		t.Fatal(err)
	}
	assertResult(t, res)
	want := []string{"call:c1", "result:c1", "call:c2", "result:c2", "call:c3", "result:c3"}
	if got := rec.trace(); !slices.Equal(got, want) {
		t.Fatalf("events %v, want %v", got, want)
	}
}

// "Failures are isolated. A tool that throws gets its own error
// result; its siblings carry on."
func TestParallelFailureIsolated(t *testing.T) {
	failing, err := NewTool("fail", "fails", func(ctx context.Context, in workArgs) (string, error) {
		return "", errors.New("boom")
	})
	if err != nil {
		t.Fatal(err)
	}
	calls := []ScriptedCall{
		{ID: "c1", Name: "echo", Args: `{"id":"c1"}`},
		{ID: "c2", Name: "fail", Args: `{"id":"c2"}`},
		{ID: "c3", Name: "echo", Args: `{"id":"c3"}`},
		{ID: "c4", Name: "nope", Args: `{}`},
		{ID: "c5", Name: "echo", Args: `{"id":5}`},
	}
	a := mustNew(t, Script(Turn{Calls: calls}, Turn{Text: "ok"}), WithTools(echoTool(t), failing))
	res, err := a.Execute(t.Context(), user("go"))
	if err != nil {
		t.Fatal(err)
	}
	assertResult(t, res)
	if res.FinishReason != FinishStop {
		t.Fatalf("finish %s", res.FinishReason)
	}
	kinds := errorKinds(res.Messages)
	want := map[string]ToolErrorKind{"c1": "", "c2": KindExecution, "c3": "", "c4": KindNotFound, "c5": KindValidation}
	for id, k := range want {
		if kinds[id] != k {
			t.Errorf("%s: kind %q, want %q", id, kinds[id], k)
		}
	}
	if r := results(res.Messages); r["c1"] != "echo c1" || r["c3"] != "echo c3" {
		t.Fatalf("siblings' results %v", r)
	}
}

// "A propagating error (a throwing hook) stops new calls from
// starting, waits for the running ones to settle, then rejects the run.
// No tool is left running detached."
func TestParallelPropagatingErrorStopsNewCallsAndWaits(t *testing.T) {
	b := newBlocker()
	hookErr := errors.New("policy says no")
	a := mustNew(t, Script(Turn{Calls: workCalls("c1", "c2", "c3")}, Turn{Text: "unreachable"}),
		WithTools(b.tool(t)), WithToolConcurrency(4),
		WithPreToolCall(func(_ context.Context, c Call) error {
			if c.ID == "c2" {
				// c1 is running: release it only now, so the run can
				// only end with c1's result if it waited for it.
				b.release("c1")
				return hookErr
			}
			return nil
		}))
	res, err := a.Execute(t.Context(), user("go"))
	if !errors.Is(err, hookErr) || agui.CodeOf(err) != CodeTool {
		t.Fatalf("err = %v (code %s), want the hook's error with %s", err, agui.CodeOf(err), CodeTool)
	}
	if res.FinishReason != FinishError {
		t.Fatalf("finish %s", res.FinishReason)
	}
	assertResult(t, res)
	if got := b.log.list(); !slices.Equal(got, []string{"start c1", "end c1"}) {
		t.Fatalf("tool log %v: c1 must run to its end, c2 and c3 never start", got)
	}
	kinds := errorKinds(res.Messages)
	if kinds["c1"] != "" || kinds["c2"] != KindNotRun || kinds["c3"] != KindNotRun {
		t.Fatalf("kinds %v", kinds)
	}
}

// A tool error wrapped with Propagate fails the run the same way.
func TestParallelPropagatedToolError(t *testing.T) {
	fatal, err := NewTool("fatal", "fails the run", func(ctx context.Context, in workArgs) (string, error) {
		return "", Propagate(errors.New("disk on fire"))
	})
	if err != nil {
		t.Fatal(err)
	}
	calls := []ScriptedCall{{ID: "c1", Name: "fatal", Args: `{"id":"c1"}`}, {ID: "c2", Name: "echo", Args: `{"id":"c2"}`}}
	a := mustNew(t, Script(Turn{Calls: calls}, Turn{Text: "x"}), WithTools(fatal, echoTool(t)), WithToolConcurrency(1))
	res, err := a.Execute(t.Context(), user("go"))
	if err == nil || agui.CodeOf(err) != CodeTool {
		t.Fatalf("err %v", err)
	}
	assertResult(t, res)
	if k := errorKinds(res.Messages); k["c2"] != KindNotRun {
		t.Fatalf("kinds %v", k)
	}
}

// A panicking tool becomes an error result, not a crash.
func TestParallelPanickingToolIsAnErrorResult(t *testing.T) {
	bad, err := NewTool("bad", "panics", func(ctx context.Context, in workArgs) (string, error) {
		panic("oops")
	})
	if err != nil {
		t.Fatal(err)
	}
	a := mustNew(t, Script(Turn{Calls: []ScriptedCall{{ID: "c1", Name: "bad", Args: `{"id":"x"}`}}}, Turn{Text: "ok"}), WithTools(bad))
	res, err := a.Execute(t.Context(), user("go"))
	if err != nil {
		t.Fatal(err)
	}
	assertResult(t, res)
	if k := errorKinds(res.Messages); k["c1"] != KindExecution {
		t.Fatalf("kinds %v", k)
	}
}

// A panicking hook is a propagating error: running calls finish, the run
// fails, nothing is left running.
func TestParallelPanickingHook(t *testing.T) {
	for name, opt := range map[string]func(*blocker) Option{
		"OnToolCall": func(b *blocker) Option {
			return WithOnToolCall(func(_ context.Context, c Call) {
				if c.ID == "c2" {
					b.release("c1")
					panic("hook bug")
				}
			})
		},
		"NeedsApproval": func(b *blocker) Option {
			return WithNeedsApproval(func(c Call) bool {
				if c.ID == "c2" {
					b.release("c1")
					panic("hook bug")
				}
				return false
			})
		},
	} {
		t.Run(name, func(t *testing.T) {
			b := newBlocker()
			a := mustNew(t, Script(Turn{Calls: workCalls("c1", "c2")}), WithTools(b.tool(t)), opt(b))
			res, err := a.Execute(t.Context(), user("go"))
			if agui.CodeOf(err) != CodeTool {
				t.Fatalf("err %v", err)
			}
			assertResult(t, res)
			if r := results(res.Messages); r["c1"] != "done c1" {
				t.Fatalf("results %v", r)
			}
		})
	}
}
