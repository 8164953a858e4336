package main

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/loop"
)

// testLoopAgent is the demo agent on a store that checks every transcript
// it saves: each tool call has exactly one result, in call order, except
// at the tail of a running or paused thread.
func testLoopAgent(t *testing.T) core.Agent[core.NoState] {
	t.Helper()
	a, err := newLoopAgent(loop.WithCheckpoints(checkedStore{loop.NewMemoryStore(), t}))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

type checkedStore struct {
	*loop.MemoryStore
	t *testing.T
}

func (s checkedStore) Save(ctx context.Context, cp *loop.Checkpoint, expect int64, kept int) (int64, error) {
	pendingOK := cp.Status != loop.StatusIdle
	if err := checkTranscript(cp.Messages, pendingOK); err != nil {
		s.t.Errorf("saved %s transcript is invalid: %v", cp.Status, err)
	}
	return s.MemoryStore.Save(ctx, cp, expect, kept)
}

// checkTranscript checks that every call's result directly follows its
// turn, in call order; pendingOK lets the last turn's calls from some call
// on go unanswered.
func checkTranscript(msgs []agui.Message, pendingOK bool) error {
	for i := 0; i < len(msgs); i++ {
		switch m := msgs[i].(type) {
		case *agui.ToolMessage:
			return fmt.Errorf("message %d: result for %s without its call", i, m.ToolCallID)
		case *agui.AssistantMessage:
			for k, c := range m.ToolCalls {
				j := i + 1 + k
				if j == len(msgs) && pendingOK {
					return nil
				}
				if j >= len(msgs) {
					return fmt.Errorf("call %s (#%d) has no result", c.ID, k)
				}
				if tm, ok := msgs[j].(*agui.ToolMessage); !ok || tm.ToolCallID != c.ID {
					return fmt.Errorf("call %s (#%d) has no result in call order", c.ID, k)
				}
			}
			i += len(m.ToolCalls)
		}
	}
	return nil
}

func runLoop(t *testing.T, a core.Agent[core.NoState], in *agui.RunAgentInput) []agui.Event {
	t.Helper()
	var evs []agui.Event
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
	a := testLoopAgent(t)
	in := agui.NewInput("thread-1", "run-1")
	in.Messages = []agui.Message{loop.UserText("Plan a weekend in Oslo")}
	evs := runLoop(t, a, in)
	fin, ok := evs[len(evs)-1].(*agui.RunFinished)
	if !ok || fin.Outcome.Type != agui.OutcomeInterrupt {
		t.Fatalf("first run ended with %s", evs[len(evs)-1].Type())
	}
	intr := fin.Outcome.Interrupts[0]
	if intr.Reason != loop.ReasonToolApproval {
		t.Fatalf("interrupt %+v", intr)
	}
	resume := agui.NewInput("thread-1", "run-2")
	resume.Resume = []agui.ResumeEntry{{InterruptID: intr.ID, Status: agui.ResumeResolved, Payload: json.RawMessage(`{"approved":true}`)}}
	evs = runLoop(t, a, resume)
	fin, ok = evs[len(evs)-1].(*agui.RunFinished)
	if !ok || fin.Outcome.Type != agui.OutcomeSuccess || len(fin.Usage) != 1 {
		t.Fatalf("resume ended with %s", evs[len(evs)-1].Type())
	}
	var booked bool
	for _, ev := range evs {
		if r, ok := ev.(*agui.ToolCallResult); ok && r.ToolCallID == intr.ToolCallID && r.Content.String() == "booked 2 nights in Oslo" {
			booked = true
		}
	}
	if !booked {
		t.Fatal("book_trip did not run after approval")
	}
}

// A resumed run never sends the approved call's arguments again: the
// official client appends repeated TOOL_CALL_ARGS to the arguments it
// already has. A client that lacks the call is sent the thread's history
// (MESSAGES_SNAPSHOT, which holds it) first.
func TestLoopResumeSendsArgumentsOnce(t *testing.T) {
	for _, clientHasCall := range []bool{false, true} {
		a := testLoopAgent(t)
		in := agui.NewInput("thread-1", "run-1")
		in.Messages = []agui.Message{loop.UserText("Plan a weekend in Oslo")}
		evs := runLoop(t, a, in)
		intr := evs[len(evs)-1].(*agui.RunFinished).Outcome.Interrupts[0]

		resume := agui.NewInput("thread-1", "run-2")
		if clientHasCall {
			resume.Messages = append(resume.Messages, &agui.AssistantMessage{ID: "a1", ToolCalls: []agui.ToolCall{{
				ID: intr.ToolCallID, Function: agui.FunctionCall{Name: "book_trip", Arguments: `{"city":"Oslo","nights":2}`},
			}}})
		}
		resume.Resume = []agui.ResumeEntry{{InterruptID: intr.ID, Status: agui.ResumeResolved, Payload: json.RawMessage(`{"approved":true}`)}}
		var started, args, snapshots int
		for _, ev := range runLoop(t, a, resume) {
			switch e := ev.(type) {
			case *agui.MessagesSnapshot:
				snapshots++
			case *agui.ToolCallStart:
				if e.ToolCallID == intr.ToolCallID {
					started++
				}
			case *agui.ToolCallArgs:
				if e.ToolCallID == intr.ToolCallID {
					args++
				}
			}
		}
		if started != 1 {
			t.Errorf("client holds the call: %v: %d TOOL_CALL_START, want 1", clientHasCall, started)
		}
		if args != 0 {
			t.Errorf("client holds the call: %v: %d TOOL_CALL_ARGS, want 0", clientHasCall, args)
		}
		if !clientHasCall && snapshots != 1 {
			t.Errorf("a client without the call got %d MESSAGES_SNAPSHOT, want 1", snapshots)
		}
	}
}
