package loop

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// A call still running at its WithToolTimeout is cancelled and its result is
// a "timeout" error the model reads on its next turn; the other calls of
// the batch and the run go on.
func TestToolTimeoutGivesTheModelATimeoutResult(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var stoppedAfter time.Duration
		start := time.Now()
		hang, err := NewTool("hang", "waits for its context", func(ctx context.Context, in workArgs) (string, error) {
			<-ctx.Done()
			stoppedAfter = time.Since(start)
			return "", ctx.Err()
		})
		if err != nil {
			t.Fatal(err)
		}
		stubborn, err := NewTool("stubborn", "ignores its context", func(ctx context.Context, in workArgs) (string, error) {
			time.Sleep(15 * time.Second)
			return "late but fine", nil
		})
		if err != nil {
			t.Fatal(err)
		}
		p := Script(Turn{Calls: []ScriptedCall{
			{ID: "c1", Name: "hang", Args: `{"id":"c1"}`},
			{ID: "c2", Name: "echo", Args: `{"id":"c2"}`},
			{ID: "c3", Name: "stubborn", Args: `{"id":"c3"}`},
		}}, Turn{Text: "the lookup timed out"})
		a := mustNew(t, p, WithTools(hang, echoTool(t), stubborn), WithToolTimeout(10*time.Second))
		res, err := a.Execute(t.Context(), user("go"))
		if err != nil || res.FinishReason != FinishStop {
			t.Fatalf("%s %v", res.FinishReason, err)
		}
		assertResult(t, res)
		kinds, texts := errorKinds(res.Messages), results(res.Messages)
		if kinds["c1"] != KindTimeout || kinds["c2"] != "" || kinds["c3"] != KindTimeout {
			t.Fatalf("kinds %v", kinds)
		}
		if !strings.Contains(texts["c1"], "did not finish within 10s") || texts["c2"] != "echo c2" {
			t.Fatalf("results %v", texts)
		}
		if stoppedAfter != 10*time.Second || p.Calls() != 2 {
			t.Fatalf("hang stopped after %v; %d model calls", stoppedAfter, p.Calls())
		}
	})
}

// Without WithToolTimeout a call takes as long as it takes.
func TestToolTimeoutDefaultIsNone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		long, err := NewTool("long", "", func(ctx context.Context, in workArgs) (string, error) {
			select {
			case <-time.After(time.Hour):
				return "an hour later", nil
			case <-ctx.Done():
				return "", ctx.Err()
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		p := Script(Turn{Calls: []ScriptedCall{{ID: "c1", Name: "long", Args: `{"id":"c1"}`}}}, Turn{Text: "ok"})
		res, err := mustNew(t, p, WithTools(long)).Execute(t.Context(), user("go"))
		if err != nil || results(res.Messages)["c1"] != "an hour later" {
			t.Fatalf("%v %v", results(res.Messages), err)
		}
	})
}

func TestToolTimeoutRejectsNegative(t *testing.T) {
	if _, err := New(Script(), WithToolTimeout(-time.Second)); err == nil {
		t.Fatal("a negative ToolTimeout was accepted")
	}
}
