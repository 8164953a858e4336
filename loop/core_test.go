package loop

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// runCore runs a through core.Run and returns its events.
func runCore(t *testing.T, a *Agent, in *agui.RunAgentInput) []agui.Event {
	t.Helper()
	var evs []agui.Event
	for ev, err := range core.Run(t.Context(), core.Agent[core.NoState](a), in) {
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
	return evs
}

func types(evs []agui.Event) []agui.EventType {
	var out []agui.EventType
	for _, ev := range evs {
		out = append(out, ev.Type())
	}
	return out
}

// Hosted by core: text, tool calls with parentMessageId, results, and
// usage on RUN_FINISHED; the verifier accepts the stream.
func TestCoreRunEventsAndUsage(t *testing.T) {
	a := mustNew(t, Script(
		Turn{Text: "looking", Calls: echoCalls("c1", "c2"), Usage: Usage{InputTokens: 5, OutputTokens: 2}},
		Turn{Text: "done", Usage: Usage{InputTokens: 9, OutputTokens: 1}},
	), WithTools(echoTool(t)))
	in := agui.NewInput("thread-1", "run-1")
	in.Messages = []agui.Message{UserText("go")}
	evs := runCore(t, a, in)
	last, ok := evs[len(evs)-1].(*agui.RunFinished)
	if !ok {
		t.Fatalf("last event %v: %v", evs[len(evs)-1].Type(), types(evs))
	}
	if last.Outcome.Type != agui.OutcomeSuccess || len(last.Usage) != 1 || *last.Usage[0].InputTokens != 14 || *last.Usage[0].OutputTokens != 3 {
		t.Fatalf("finished %+v usage %+v", last.Outcome, last.Usage)
	}
	var msgID string
	for _, ev := range evs {
		switch e := ev.(type) {
		case *agui.TextMessageStart:
			if msgID == "" {
				msgID = e.MessageID
			}
		case *agui.ToolCallStart:
			if e.ParentMessageID != msgID {
				t.Fatalf("parentMessageId %s, want %s", e.ParentMessageID, msgID)
			}
		}
	}
}

// Hosted by core: an approval ends the run with RUN_FINISHED and an
// interrupt outcome; the next run's resume continues it.
func TestCoreRunApprovalInterruptAndResume(t *testing.T) {
	b := newBlocker()
	for _, id := range []string{"c1", "c2", "c3", "c4"} {
		b.release(id)
	}
	a, _ := approvalAgent(t, b)
	in := agui.NewInput("thread-1", "run-1")
	in.Messages = []agui.Message{UserText("go")}
	evs := runCore(t, a, in)
	fin, ok := evs[len(evs)-1].(*agui.RunFinished)
	if !ok || fin.Outcome.Type != agui.OutcomeInterrupt || len(fin.Outcome.Interrupts) != 1 {
		t.Fatalf("end %v", types(evs))
	}
	intr := fin.Outcome.Interrupts[0]
	if intr.Reason != ReasonToolApproval || intr.ToolCallID != "c3" || intr.ResponseSchema == nil {
		t.Fatalf("interrupt %+v", intr)
	}

	// A bad resume: RUN_ERROR with a stable code, nothing run.
	bad := agui.NewInput("thread-1", "run-2")
	bad.Resume = []agui.ResumeEntry{{InterruptID: "other", Status: agui.ResumeResolved, Payload: json.RawMessage(`{"approved":true}`)}}
	evs = runCore(t, a, bad)
	if re, ok := evs[len(evs)-1].(*agui.RunError); !ok || re.Code != string(CodeBadResume) || len(evs) != 2 {
		t.Fatalf("bad resume: %v", types(evs))
	}

	good := agui.NewInput("thread-1", "run-3")
	good.Resume = []agui.ResumeEntry{{InterruptID: intr.ID, Status: agui.ResumeResolved, Payload: json.RawMessage(`{"approved":true}`)}}
	evs = runCore(t, a, good)
	if fin, ok := evs[len(evs)-1].(*agui.RunFinished); !ok || fin.Outcome.Type != agui.OutcomeSuccess {
		t.Fatalf("resume: %s", dumpEvents(evs))
	}
	if b.runs.Load() != 4 {
		t.Fatalf("%d tool runs", b.runs.Load())
	}
}

// Hosted by core: delegation produces verified SUBAGENT_* events.
func TestCoreRunDelegation(t *testing.T) {
	sub := mustNew(t, Script(Turn{Text: "found it"}))
	a := mustNew(t, Script(delegateTurn("d1"), Turn{Text: "thanks"}), WithTools(mustDelegate(t, sub)))
	in := agui.NewInput("thread-1", "run-1")
	in.Messages = []agui.Message{UserText("go")}
	evs := runCore(t, a, in)
	got := types(evs)
	if got[len(got)-1] != agui.TypeRunFinished || !slices.Contains(got, agui.TypeSubagentStarted) || !slices.Contains(got, agui.TypeSubagentFinished) {
		t.Fatalf("events %v", got)
	}
	for _, ev := range evs {
		if e, ok := ev.(*agui.SubagentStarted); ok && (e.ParentToolCallID != "d1" || e.ParentMessageID == "") {
			t.Fatalf("started %+v", e)
		}
	}
}

func dumpEvents(evs []agui.Event) string {
	var s string
	for _, ev := range evs {
		b, _ := ev.AppendJSON(nil)
		s += string(b) + "\n"
	}
	return s
}

// Hosted by core, max-steps is a success whose result says so.
func TestCoreRunMaxStepsResult(t *testing.T) {
	a := mustNew(t, Script(Turn{Calls: echoCalls("c1")}, Turn{Calls: echoCalls("c2")}), WithTools(echoTool(t)), WithMaxSteps(1))
	in := agui.NewInput("thread-1", "run-1")
	in.Messages = []agui.Message{UserText("go")}
	evs := runCore(t, a, in)
	fin, ok := evs[len(evs)-1].(*agui.RunFinished)
	if !ok || fin.Outcome.Type != agui.OutcomeSuccess {
		t.Fatalf("events %v", types(evs))
	}
	if r, _ := fin.Result.(map[string]any); r["finishReason"] != "max-steps" || r["steps"] != 1 {
		t.Fatalf("result %v", fin.Result)
	}
}

// Hosted by core, two requests on one thread at once: the second ends
// with RUN_ERROR THREAD_BUSY before anything runs.
func TestCoreRunBusyThread(t *testing.T) {
	b := newBlocker()
	a := mustNew(t, Script(Turn{Calls: workCalls("c1")}, Turn{Text: "ok"}), WithTools(b.tool(t)))
	first := agui.NewInput("thread-1", "run-1")
	first.Messages = []agui.Message{UserText("one")}
	done := make(chan []agui.Event)
	go func() {
		var evs []agui.Event
		for ev := range core.Run(t.Context(), core.Agent[core.NoState](a), first) {
			evs = append(evs, ev)
		}
		done <- evs
	}()
	<-b.started
	second := agui.NewInput("thread-1", "run-2")
	second.Messages = []agui.Message{UserText("two")}
	evs := runCore(t, a, second)
	if re, ok := evs[len(evs)-1].(*agui.RunError); !ok || re.Code != string(CodeBusy) || len(evs) != 2 {
		t.Fatalf("second: %v", types(evs))
	}
	b.release("c1")
	evs = <-done
	if _, ok := evs[len(evs)-1].(*agui.RunFinished); !ok {
		t.Fatalf("first: %v", types(evs))
	}
}

// Hosted by core, an abort ends the stream with RUN_ERROR CANCELLED (the
// runner's rule for cancelled runs); the thread stays usable and its
// transcript valid.
func TestCoreRunAbort(t *testing.T) {
	b := newBlocker()
	p := Script(Turn{Calls: workCalls("c1", "c2")}, Turn{Text: "ok"})
	a := mustNew(t, p, WithTools(b.tool(t)), WithToolConcurrency(1))
	in := agui.NewInput("thread-1", "run-1")
	in.Messages = []agui.Message{UserText("go")}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan []agui.Event)
	go func() {
		var evs []agui.Event
		for ev := range core.Run(ctx, core.Agent[core.NoState](a), in) {
			evs = append(evs, ev)
		}
		done <- evs
	}()
	<-b.started
	cancel()
	evs := <-done
	if re, ok := evs[len(evs)-1].(*agui.RunError); !ok || re.Code != string(agui.CodeCancelled) {
		t.Fatalf("events %v", types(evs))
	}
	// The script plays its calls again for the new message (renamed, since
	// their ids are taken); let them finish.
	b.release("c1")
	b.release("c2")
	res, err := a.Execute(t.Context(), Input{ThreadID: "thread-1", Messages: []agui.Message{UserText("again")}})
	if err != nil {
		t.Fatal(err)
	}
	assertResult(t, res)
	if k := errorKinds(res.Messages); k["c1"] != KindCancelled || k["c2"] != KindCancelled {
		t.Fatalf("kinds %v", k)
	}
}
