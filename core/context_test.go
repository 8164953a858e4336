package core

import (
	"context"
	"fmt"
	"testing"
)

func TestResume(t *testing.T) {
	in := NewInput("t", "r")
	in.Resume = []ResumeEntry{
		{InterruptID: "a", Status: ResumeResolved, Payload: map[string]any{"ok": true}},
		{InterruptID: "b", Status: ResumeCancelled},
	}
	evs := collect(t, Run[NoState](context.Background(), AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (Outcome, error) {
		if rc.Input() != in {
			return Outcome{}, fmt.Errorf("Input is not the run's input")
		}
		if r, ok := rc.ResumeFor("a"); !ok || r.Status != ResumeResolved || r.Payload == nil {
			return Outcome{}, fmt.Errorf("ResumeFor(a) = %+v, %v", r, ok)
		}
		if r, ok := rc.ResumeFor("b"); !ok || r.Status != ResumeCancelled {
			return Outcome{}, fmt.Errorf("ResumeFor(b) = %+v, %v", r, ok)
		}
		if _, ok := rc.ResumeFor("c"); ok {
			return Outcome{}, fmt.Errorf("ResumeFor(c) found an answer")
		}
		switch {
		case !rc.ResumeCovers("a", "b"), !rc.ResumeCovers():
			return Outcome{}, fmt.Errorf("ResumeCovers misses answers")
		case rc.ResumeCovers("a", "c"):
			return Outcome{}, fmt.Errorf("ResumeCovers(a, c) is true")
		}
		return Success(), nil
	}), in))
	last[*RunFinished](t, evs)
}
