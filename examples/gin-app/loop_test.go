package main

import (
	"encoding/json"
	"testing"

	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/loop"
)

func runLoop(t *testing.T, a core.Agent[core.NoState], in *core.RunAgentInput) []core.Event {
	t.Helper()
	var evs []core.Event
	for ev, err := range core.Run(t.Context(), a, in) {
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
	return evs
}

// The demo pauses on book_trip and finishes after the resume.
func TestLoopAgentApprovalRoundTrip(t *testing.T) {
	a, err := newLoopAgent()
	if err != nil {
		t.Fatal(err)
	}
	in := core.NewInput("thread-1", "run-1")
	in.Messages = []core.Message{loop.UserText("Plan a weekend in Oslo")}
	evs := runLoop(t, a, in)
	fin, ok := evs[len(evs)-1].(*core.RunFinished)
	if !ok || fin.Outcome.Type != core.OutcomeInterrupt {
		t.Fatalf("first run ended with %s", evs[len(evs)-1].Type())
	}
	intr := fin.Outcome.Interrupts[0]
	if intr.Reason != loop.ReasonToolApproval {
		t.Fatalf("interrupt %+v", intr)
	}
	resume := core.NewInput("thread-1", "run-2")
	resume.Resume = []core.ResumeEntry{{InterruptID: intr.ID, Status: core.ResumeResolved, Payload: json.RawMessage(`{"approved":true}`)}}
	evs = runLoop(t, a, resume)
	fin, ok = evs[len(evs)-1].(*core.RunFinished)
	if !ok || fin.Outcome.Type != core.OutcomeSuccess || len(fin.Usage) != 1 {
		t.Fatalf("resume ended with %s", evs[len(evs)-1].Type())
	}
	var booked bool
	for _, ev := range evs {
		if r, ok := ev.(*core.ToolCallResult); ok && r.ToolCallID == intr.ToolCallID && r.Content.String() == "booked 2 nights in Oslo" {
			booked = true
		}
	}
	if !booked {
		t.Fatal("book_trip did not run after approval")
	}
}
