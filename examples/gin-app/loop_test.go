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

// A resumed run sends the approved call's arguments again only to a client
// that does not hold them: the official client appends repeated
// TOOL_CALL_ARGS to the arguments it already has.
func TestLoopResumeSendsArgumentsOnce(t *testing.T) {
	for _, clientHasCall := range []bool{false, true} {
		a, err := newLoopAgent()
		if err != nil {
			t.Fatal(err)
		}
		in := core.NewInput("thread-1", "run-1")
		in.Messages = []core.Message{loop.UserText("Plan a weekend in Oslo")}
		evs := runLoop(t, a, in)
		intr := evs[len(evs)-1].(*core.RunFinished).Outcome.Interrupts[0]

		resume := core.NewInput("thread-1", "run-2")
		if clientHasCall {
			resume.Messages = append(resume.Messages, &core.AssistantMessage{ID: "a1", ToolCalls: []core.ToolCall{{
				ID: intr.ToolCallID, Function: core.FunctionCall{Name: "book_trip", Arguments: `{"city":"Oslo","nights":2}`},
			}}})
		}
		resume.Resume = []core.ResumeEntry{{InterruptID: intr.ID, Status: core.ResumeResolved, Payload: json.RawMessage(`{"approved":true}`)}}
		var started, args int
		for _, ev := range runLoop(t, a, resume) {
			switch e := ev.(type) {
			case *core.ToolCallStart:
				if e.ToolCallID == intr.ToolCallID {
					started++
				}
			case *core.ToolCallArgs:
				if e.ToolCallID == intr.ToolCallID {
					args++
				}
			}
		}
		if started != 1 {
			t.Errorf("client holds the call: %v: %d TOOL_CALL_START, want 1", clientHasCall, started)
		}
		if got := args > 0; got == clientHasCall {
			t.Errorf("client holds the call: %v: %d TOOL_CALL_ARGS", clientHasCall, args)
		}
	}
}
