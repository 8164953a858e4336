package loop

import (
	"context"
	"errors"
	"testing"

	"github.com/agui-go/agui"
)

func delegateTurn(id string) Turn {
	return Turn{Calls: []ScriptedCall{{ID: id, Name: "delegate", Args: `{"task":"look it up"}`}}}
}

func mustDelegate(t *testing.T, sub *Agent) Tool {
	t.Helper()
	d, err := Delegate("delegate", "hands a task to a subagent", sub)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// A delegation tool runs another loop as a subagent: SUBAGENT_* events
// under the calling tool call, the subagent's events attributed to it, and
// its final text as the call's result.
func TestDelegateSubagentEvents(t *testing.T) {
	sub := mustNew(t, Script(Turn{Text: "found it", Usage: Usage{InputTokens: 7}}))
	a := mustNew(t, Script(delegateTurn("d1"), Turn{Text: "thanks", Usage: Usage{InputTokens: 3}}), WithTools(mustDelegate(t, sub)))
	rec := &recorder{}
	in := user("go")
	in.OnEvent = rec.on
	res, err := a.Execute(t.Context(), in)
	if err != nil {
		t.Fatal(err)
	}
	assertResult(t, res)
	if r := results(res.Messages); r["d1"] != "found it" {
		t.Fatalf("results %v", r)
	}
	if res.Usage.InputTokens != 10 {
		t.Fatalf("usage %+v: the subagent's must be included", res.Usage)
	}
	parent := res.Messages[1].MessageID()
	var subID string
	var order []agui.EventType
	for _, ev := range rec.events() {
		switch e := ev.(type) {
		case *agui.SubagentStarted:
			subID = e.SubagentRunID
			if e.ParentToolCallID != "d1" || e.ParentMessageID != parent || e.Name != "delegate" {
				t.Fatalf("started %+v", e)
			}
		case *agui.SubagentFinished:
			if e.SubagentRunID != subID || e.Result != "found it" {
				t.Fatalf("finished %+v", e)
			}
		case *agui.TextMessageContent:
			if e.Delta == "found " && e.SubagentRunID != subID {
				t.Fatalf("subagent text not attributed: %+v", e)
			}
			if e.Delta == "thanks" && e.SubagentRunID != "" {
				t.Fatalf("parent text attributed: %+v", e)
			}
		}
		if ev.Type() != agui.TypeTextMessageContent {
			order = append(order, ev.Type())
		}
	}
	want := []agui.EventType{agui.TypeRunStarted, agui.TypeToolCallStart, agui.TypeToolCallArgs, agui.TypeToolCallArgs, agui.TypeToolCallEnd,
		agui.TypeSubagentStarted, agui.TypeTextMessageStart, agui.TypeTextMessageEnd, agui.TypeSubagentFinished,
		agui.TypeToolCallResult, agui.TypeTextMessageStart, agui.TypeTextMessageEnd, agui.TypeRunFinished}
	if len(order) != len(want) {
		t.Fatalf("events %v\nwant %v", order, want)
	}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("events %v\nwant %v", order, want)
		}
	}
}

// "agents created with createDelegateTool() are aborted along
// with their parent" (failure mode 3).
func TestDelegateCancelledWithParent(t *testing.T) {
	entered := make(chan struct{})
	sub := mustNew(t, blockingProvider(entered))
	a := mustNew(t, Script(delegateTurn("d1"), Turn{Text: "never"}), WithTools(mustDelegate(t, sub)))
	rec := &recorder{}
	in := user("go")
	in.OnEvent = rec.on
	ctx, cancel := context.WithCancel(t.Context())
	x := goExecute(ctx, a, in)
	<-entered
	cancel()
	res, err := x.wait()
	if err != nil || res.FinishReason != FinishAborted {
		t.Fatalf("%s %v", res.FinishReason, err)
	}
	assertResult(t, res)
	if k := errorKinds(res.Messages); k["d1"] != KindCancelled {
		t.Fatalf("kinds %v", k)
	}
	// The run's RUN_ERROR ends the subagent with it: once the run is
	// cancelled no event but the terminal one goes out.
	evs := rec.events()
	var started bool
	for _, ev := range evs {
		if _, ok := ev.(*agui.SubagentStarted); ok {
			started = true
		}
	}
	if re, ok := evs[len(evs)-1].(*agui.RunError); !started || !ok || re.Code != string(agui.CodeCancelled) {
		t.Fatalf("subagent started %v, the stream ends with %#v", started, evs[len(evs)-1])
	}
}

// The depth guard is a propagating error: it fails the whole run with
// DELEGATION_DEPTH (failure mode 10). It bounds nesting only: fan-out
// (many delegations per turn or per run) is bounded by WithMaxSteps and
// WithToolConcurrency, not by this guard, and this test does not cover it.
func TestDelegateDepthGuard(t *testing.T) {
	leaf := mustNew(t, Script(Turn{Text: "leaf"}))
	// Each level's call has its own id: the run's stream carries them all.
	level := func(call string, sub *Agent) *Agent {
		return mustNew(t, Script(delegateTurn(call), Turn{Text: "done"}), WithTools(mustDelegate(t, sub)))
	}
	a2 := level("d2", leaf)
	a1 := level("d1", a2)
	for depth, wantErr := range map[int]bool{2: true, 3: false} {
		root := mustNew(t, Script(delegateTurn("d0"), Turn{Text: "done"}), WithTools(mustDelegate(t, a1)), WithMaxDelegationDepth(depth))
		res, err := root.Execute(t.Context(), user("go"))
		assertResult(t, res)
		if wantErr && agui.CodeOf(err) != CodeDepth {
			t.Fatalf("max depth %d: err %v, want %s", depth, err, CodeDepth)
		}
		if !wantErr && (err != nil || res.FinishReason != FinishStop) {
			t.Fatalf("max depth %d: %s %v", depth, res.FinishReason, err)
		}
	}
}

// Outside a loop the delegation tool still runs its subagent.
func TestDelegateCalledDirectly(t *testing.T) {
	d := mustDelegate(t, mustNew(t, Script(Turn{Text: "direct"})))
	out, err := d.call(t.Context(), []byte(`{"task":"x"}`))
	if err != nil || out != "direct" {
		t.Fatalf("%q %v", out, err)
	}
}

// A finished subagent leaves no checkpoint behind.
func TestDelegateCleansUpItsThread(t *testing.T) {
	store := NewMemoryStore()
	sub := mustNew(t, Script(Turn{Text: "found it"}), WithCheckpoints(store))
	a := mustNew(t, Script(delegateTurn("d1"), Turn{Text: "thanks"}), WithTools(mustDelegate(t, sub)))
	res, err := a.Execute(t.Context(), user("go"))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := store.Load(t.Context(), res.ThreadID+"/d1"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("subagent checkpoint: %v", err)
	}
}

// An aborted subagent leaves no checkpoint behind either: its call gets a
// cancelled result, so its thread is never resumed.
func TestDelegateAbortedCleansUpItsThread(t *testing.T) {
	store := NewMemoryStore()
	entered := make(chan struct{})
	sub := mustNew(t, blockingProvider(entered), WithCheckpoints(store))
	a := mustNew(t, Script(delegateTurn("d1"), Turn{Text: "never"}), WithTools(mustDelegate(t, sub)))
	ctx, cancel := context.WithCancel(t.Context())
	x := goExecute(ctx, a, user("go"))
	<-entered
	cancel()
	res, err := x.wait()
	if err != nil || res.FinishReason != FinishAborted {
		t.Fatalf("%s %v", res.FinishReason, err)
	}
	if _, _, err := store.Load(t.Context(), res.ThreadID+"/d1"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("aborted subagent's checkpoint: %v", err)
	}
}
