package loop

import (
	"context"
	"testing"

	"github.com/agui-go/agui"
)

// A turn the provider ends early ends the run with its reason, on Result
// and on RUN_FINISHED's result, instead of reading as stop.
func TestFinishReasonReachesResult(t *testing.T) {
	for _, want := range []FinishReason{FinishLength, FinishContentFilter} {
		a := mustNew(t, Script(Turn{Text: "cut", Finish: want}))
		res, err := a.Execute(t.Context(), Input{Messages: []agui.Message{UserText("x")}})
		if err != nil || res.FinishReason != want || res.Steps != 1 {
			t.Fatalf("finish %s steps %d err %v", res.FinishReason, res.Steps, err)
		}
		in := agui.NewInput("thread-1", "run-1")
		in.Messages = []agui.Message{UserText("go")}
		evs := runCore(t, mustNew(t, Script(Turn{Text: "cut", Finish: want})), in)
		fin, ok := evs[len(evs)-1].(*agui.RunFinished)
		if !ok || fin.Outcome.Type != agui.OutcomeSuccess {
			t.Fatalf("events %v", types(evs))
		}
		if r, _ := fin.Result.(map[string]any); r["finishReason"] != string(want) {
			t.Fatalf("result %v", fin.Result)
		}
	}
}

// The calls of a cut-off turn are dropped, not run: their arguments may be
// truncated.
func TestCutOffTurnRunsNoCall(t *testing.T) {
	ran := false
	a := mustNew(t, Script(Turn{Text: "calling", Calls: echoCalls("c1"), Finish: FinishLength}), WithTools(echoTool(t)),
		WithPreToolCall(func(ctx context.Context, c Call) error { ran = true; return nil }))
	var started bool
	res, err := a.Execute(t.Context(), Input{Messages: []agui.Message{UserText("x")}, OnEvent: func(ev agui.Event) error {
		if _, ok := ev.(*agui.ToolCallStart); ok {
			started = true
		}
		return nil
	}})
	if err != nil || res.FinishReason != FinishLength || ran || started {
		t.Fatalf("finish %s ran %v started %v err %v", res.FinishReason, ran, started, err)
	}
	last := res.Messages[len(res.Messages)-1].(*agui.AssistantMessage)
	if last.Content != "calling" || len(last.ToolCalls) != 0 {
		t.Fatalf("last message %+v", last)
	}
}

// A finish reason the loop does not know is ignored: the turn's calls run.
func TestUnknownFinishIgnored(t *testing.T) {
	a := mustNew(t, Script(Turn{Calls: echoCalls("c1"), Finish: FinishStop}, Turn{Text: "done"}), WithTools(echoTool(t)))
	res, err := a.Execute(t.Context(), Input{Messages: []agui.Message{UserText("x")}})
	if err != nil || res.FinishReason != FinishStop || res.Steps != 2 {
		t.Fatalf("finish %s steps %d err %v", res.FinishReason, res.Steps, err)
	}
}
