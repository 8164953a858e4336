package loop

import (
	"context"
	"errors"
	"testing"

	"github.com/agui-go/agui"
)

// A tool reads its call from its context and reports progress as
// activity events the verifier accepts.
func TestCallFromAndProgress(t *testing.T) {
	var got CallInfo
	tool, err := NewTool("work", "", func(ctx context.Context, in workArgs) (string, error) {
		ci, ok := CallFrom(ctx)
		if !ok {
			return "", errors.New("no call info")
		}
		got = ci
		if err := Progress(ctx, "progress", map[string]any{"done": 0}); err != nil {
			return "", err
		}
		if err := ProgressPatch(ctx, "progress", agui.PatchOp{Op: "replace", Path: "/done", Value: 1}); err != nil {
			return "", err
		}
		return "ok", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	a := mustNew(t, Script(Turn{Calls: workCalls("c1")}, Turn{Text: "done"}), WithTools(tool))
	in := agui.NewInput("thread-1", "run-1")
	in.Messages = []agui.Message{UserText("go")}
	evs := runCore(t, a, in)
	if fin, ok := evs[len(evs)-1].(*agui.RunFinished); !ok || fin.Outcome.Type != agui.OutcomeSuccess {
		t.Fatalf("end %v", types(evs))
	}
	want := CallInfo{ID: "c1", Name: "work", ThreadID: "thread-1", RunID: "run-1", Attempt: 1}
	if got != want {
		t.Fatalf("call info %+v, want %+v", got, want)
	}
	var snap *agui.ActivitySnapshot
	var delta *agui.ActivityDelta
	for _, ev := range evs {
		switch e := ev.(type) {
		case *agui.ActivitySnapshot:
			snap = e
		case *agui.ActivityDelta:
			delta = e
		}
	}
	if snap == nil || delta == nil || snap.MessageID != delta.MessageID || snap.ActivityType != "progress" || snap.Content["done"] != 0 {
		t.Fatalf("activity events %+v %+v", snap, delta)
	}
}
