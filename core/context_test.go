package core

import (
	"context"
	"fmt"
	"testing"

	"github.com/agui-go/agui"
)

func TestResume(t *testing.T) {
	in := agui.NewInput("t", "r")
	in.Resume = []agui.ResumeEntry{
		{InterruptID: "a", Status: agui.ResumeResolved, Payload: map[string]any{"ok": true}},
		{InterruptID: "b", Status: agui.ResumeCancelled},
	}
	evs := collect(t, Run[NoState](context.Background(), AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		if rc.Input() != in {
			return agui.Outcome{}, fmt.Errorf("Input is not the run's input")
		}
		if r, ok := rc.ResumeFor("a"); !ok || r.Status != agui.ResumeResolved || r.Payload == nil {
			return agui.Outcome{}, fmt.Errorf("ResumeFor(a) = %+v, %v", r, ok)
		}
		if r, ok := rc.ResumeFor("b"); !ok || r.Status != agui.ResumeCancelled {
			return agui.Outcome{}, fmt.Errorf("ResumeFor(b) = %+v, %v", r, ok)
		}
		if _, ok := rc.ResumeFor("c"); ok {
			return agui.Outcome{}, fmt.Errorf("ResumeFor(c) found an answer")
		}
		switch {
		case !rc.ResumeCovers("a", "b"), !rc.ResumeCovers():
			return agui.Outcome{}, fmt.Errorf("ResumeCovers misses answers")
		case rc.ResumeCovers("a", "c"):
			return agui.Outcome{}, fmt.Errorf("ResumeCovers(a, c) is true")
		}
		return agui.Success(), nil
	}), in))
	last[*agui.RunFinished](t, evs)
}
