package transformers

import (
	"slices"
	"strings"
	"testing"

	"github.com/agui-go/agui"
)

// delegation is a run whose agent delegates to subagent "sub-1", which
// nests "sub-2". Continuations of the subagents' entities are often
// untagged, as the protocol allows.
func delegation() []agui.Event {
	no := false
	return evs(
		started(),
		&agui.ToolCallStart{ToolCallID: "tc-d", ToolCallName: "delegate", ParentMessageID: "m-parent"},
		&agui.ToolCallArgs{ToolCallID: "tc-d", Delta: "{}"},
		&agui.ToolCallEnd{ToolCallID: "tc-d"},
		&agui.SubagentStarted{SubagentRunID: "sub-1", Name: "planner", ParentToolCallID: "tc-d", ParentMessageID: "m-parent"},
		tagged("sub-1", &agui.TextMessageStart{MessageID: "m-sub", Role: agui.RoleAssistant}),
		tagged("sub-1", &agui.TextMessageContent{MessageID: "m-sub", Delta: "Two tasks."}),
		&agui.TextMessageEnd{MessageID: "m-sub"},
		tagged("sub-1", &agui.ToolCallStart{ToolCallID: "tc-sub", ToolCallName: "estimate"}),
		&agui.ToolCallArgs{ToolCallID: "tc-sub", Delta: "{}"},
		tagged("sub-1", &agui.ToolCallEnd{ToolCallID: "tc-sub"}),
		&agui.ToolCallResult{MessageID: "r-sub", ToolCallID: "tc-sub", Content: agui.TextContent("1d")},
		tagged("sub-1", &agui.StepStarted{StepName: "work"}),
		tagged("sub-1", &agui.StepFinished{StepName: "work"}),
		tagged("sub-1", &agui.StateSnapshot{Snapshot: map[string]any{"n": 1}}),
		tagged("sub-1", &agui.ReasoningStart{MessageID: "rs-sub"}),
		tagged("sub-1", &agui.ReasoningMessageStart{MessageID: "rs-sub"}),
		&agui.ReasoningMessageContent{MessageID: "rs-sub", Delta: "hmm"},
		&agui.ReasoningMessageEnd{MessageID: "rs-sub"},
		&agui.ReasoningEnd{MessageID: "rs-sub"},
		&agui.ReasoningEncryptedValue{Subtype: agui.EncryptedMessage, EntityID: "rs-sub", EncryptedValue: "enc"},
		tagged("sub-1", &agui.ActivitySnapshot{MessageID: "act-sub", ActivityType: "progress", Content: map[string]any{"p": 0}}),
		&agui.ActivityDelta{MessageID: "act-sub", ActivityType: "progress", Patch: []agui.PatchOp{{Op: "replace", Path: "/p", Value: 1}}},
		&agui.ActivitySnapshot{MessageID: "act-sub", ActivityType: "progress", Content: map[string]any{"p": 2}, Replace: &no},
		tagged("sub-1", &agui.Custom{Name: "note", Value: 1}),
		&agui.SubagentStarted{SubagentRunID: "sub-2", Name: "estimator", ParentSubagentRunID: "sub-1"},
		tagged("sub-2", &agui.TextMessageChunk{MessageID: "m-sub2", Delta: "About"}),
		&agui.TextMessageChunk{Delta: " a day."}, // the sole open lane is sub-2's
		tagged("sub-2", &agui.StateDelta{Delta: []agui.PatchOp{{Op: "add", Path: "/m", Value: 2}}}),
		&agui.SubagentFinished{SubagentRunID: "sub-2"},
		&agui.SubagentFinished{SubagentRunID: "sub-1", Result: map[string]any{"tasks": 2}},
		&agui.ToolCallResult{MessageID: "r-d", ToolCallID: "tc-d", Content: agui.TextContent(`{"tasks":2}`)},
		&agui.TextMessageStart{MessageID: "m-final", Role: agui.RoleAssistant},
		&agui.TextMessageContent{MessageID: "m-final", Delta: "Plan ready."},
		&agui.TextMessageEnd{MessageID: "m-final"},
		&agui.MessagesSnapshot{Messages: []agui.Message{
			&agui.AssistantMessage{ID: "m-parent", ToolCalls: []agui.ToolCall{{ID: "tc-d", Function: agui.FunctionCall{Name: "delegate", Arguments: "{}"}}}},
			&agui.ToolMessage{ID: "r-d", ToolCallID: "tc-d", Content: agui.TextContent(`{"tasks":2}`)},
			&agui.AssistantMessage{ID: "m-sub", Content: "Two tasks.", SubagentRunID: "sub-1",
				ToolCalls: []agui.ToolCall{{ID: "tc-sub", Function: agui.FunctionCall{Name: "estimate", Arguments: "{}"}}}},
			&agui.ToolMessage{ID: "r-sub", ToolCallID: "tc-sub", Content: agui.TextContent("1d"), SubagentRunID: "sub-1"},
			&agui.ReasoningMessage{ID: "rs-sub", Content: "hmm", SubagentRunID: "sub-1"},
			&agui.AssistantMessage{ID: "m-sub2", Content: "About a day.", SubagentRunID: "sub-2"},
			&agui.AssistantMessage{ID: "m-final", Content: "Plan ready."},
		}},
		&agui.RunFinished{ThreadID: "thread-1", RunID: "run-1", Outcome: &agui.Outcome{
			Type: agui.OutcomeSuccess, PendingToolCallIDs: []string{"tc-sub", "tc-front"},
		}},
	)
}

func TestSubagentVisibility(t *testing.T) {
	all := describeList(delegation())
	lifecycle := func(d string) bool { return strings.HasPrefix(d, "SUBAGENT_") }
	tests := []struct {
		mode Visibility
		want []string
	}{
		{VisibilityEmitted, all},
		{VisibilityInline, slices.DeleteFunc(slices.Clone(all), lifecycle)},
		{VisibilityHidden, []string{
			"RUN_STARTED",
			"TOOL_CALL_START tc-d", "TOOL_CALL_ARGS tc-d", "TOOL_CALL_END tc-d",
			"STATE_SNAPSHOT", "STATE_DELTA",
			"TOOL_CALL_RESULT tc-d r-d",
			"TEXT_MESSAGE_START m-final", "TEXT_MESSAGE_CONTENT m-final", "TEXT_MESSAGE_END m-final",
			"MESSAGES_SNAPSHOT",
			"RUN_FINISHED success",
		}},
		{Visibility(9), nil}, // hides, as VisibilityHidden
	}
	for _, tt := range tests {
		t.Run(tt.mode.String(), func(t *testing.T) {
			out := runChain(t, input(), delegation(), SubagentVisibility(tt.mode))
			want := tt.want
			if want == nil {
				want = describeList(runChain(t, input(), delegation(), SubagentVisibility(VisibilityHidden)))
			}
			sameList(t, describeList(out), want)
			if tt.mode != VisibilityEmitted && tt.mode != VisibilityInline {
				for _, id := range []string{"sub-1", "sub-2", "m-sub", "tc-sub", "rs-sub", "act-sub", "r-sub"} {
					noLeak(t, out, id)
				}
			}
		})
	}
}

func TestSubagentVisibilityHiddenSnapshotAndOutcome(t *testing.T) {
	out := runChain(t, input(), delegation(), SubagentVisibility(VisibilityHidden))
	var ids []string
	for _, m := range out[len(out)-2].(*agui.MessagesSnapshot).Messages {
		ids = append(ids, m.MessageID())
	}
	if want := []string{"m-parent", "r-d", "m-final"}; !slices.Equal(ids, want) {
		t.Errorf("snapshot messages = %v, want %v", ids, want)
	}
	if got := out[len(out)-1].(*agui.RunFinished).Outcome.PendingToolCallIDs; !slices.Equal(got, []string{"tc-front"}) {
		t.Errorf("pending = %v, want [tc-front]", got)
	}
	// The subagent's attributed state updates pass, untagged.
	for _, ev := range out {
		if ev.Type() == agui.TypeStateSnapshot || ev.Type() == agui.TypeStateDelta {
			if agui.SubagentOf(ev) != "" {
				t.Errorf("%s keeps its tag", describe(ev))
			}
		}
	}
	// The input events are the agent's: they must not change.
	src := delegation()
	runChain(t, input(), src, SubagentVisibility(VisibilityHidden))
	if agui.SubagentOf(src[14]) != "sub-1" || len(src[len(src)-2].(*agui.MessagesSnapshot).Messages) != 7 {
		t.Error("the transformer modified the events it was given")
	}
}

func TestSubagentVisibilityHiddenInterrupts(t *testing.T) {
	in := evs(started(),
		&agui.SubagentStarted{SubagentRunID: "sub-1", Name: "approver"},
		tagged("sub-1", &agui.ToolCallStart{ToolCallID: "tc-sub", ToolCallName: "delete"}),
		tagged("sub-1", &agui.ToolCallEnd{ToolCallID: "tc-sub"}),
		&agui.SubagentFinished{SubagentRunID: "sub-1", Outcome: &agui.SubagentOutcome{Type: "suspended", InterruptIDs: []string{"i1"}}},
		&agui.RunFinished{ThreadID: "thread-1", RunID: "run-1", Outcome: &agui.Outcome{Type: agui.OutcomeInterrupt, Interrupts: []agui.Interrupt{
			{ID: "i1", Reason: "tool_approval", ToolCallID: "tc-sub", SubagentRunID: "sub-1"},
		}}})
	out := runChain(t, input(), in, SubagentVisibility(VisibilityHidden))
	sameList(t, describeList(out), []string{"RUN_STARTED", "RUN_FINISHED interrupt"})
	got := out[1].(*agui.RunFinished).Outcome.Interrupts
	if len(got) != 1 || got[0].ID != "i1" || got[0].SubagentRunID != "" || got[0].ToolCallID != "" {
		t.Errorf("interrupts = %+v, want i1 without its subagent and call", got)
	}
	noLeak(t, out, "sub-1")
	noLeak(t, out, "tc-sub")
}

func TestSubagentVisibilityHiddenSeedsOwnersFromInput(t *testing.T) {
	in := input()
	in.Messages = []agui.Message{
		&agui.AssistantMessage{ID: "m-old", SubagentRunID: "sub-0", ToolCalls: []agui.ToolCall{{ID: "tc-old", Function: agui.FunctionCall{Name: "x"}}}},
	}
	// A later run's untagged result for a call a subagent made earlier.
	events := evs(started(),
		&agui.ToolCallResult{MessageID: "r-old", ToolCallID: "tc-old", Content: agui.TextContent("late")},
		&agui.ReasoningEncryptedValue{Subtype: agui.EncryptedToolCall, EntityID: "tc-old", EncryptedValue: "e"},
		finished())
	out, err := pass(in, events, SubagentVisibility(VisibilityHidden))
	if err != nil {
		t.Fatal(err)
	}
	sameList(t, describeList(out), []string{"RUN_STARTED", "RUN_FINISHED success"})
}

func TestVisibilityString(t *testing.T) {
	for v, want := range map[Visibility]string{VisibilityEmitted: "emitted", VisibilityInline: "inline", VisibilityHidden: "hidden", 7: "Visibility(7)"} {
		if got := v.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", v, got, want)
		}
	}
}
