package transformers

import (
	"slices"
	"strings"
	"testing"

	"github.com/agui-go/agui/core"
)

// delegation is a run whose agent delegates to subagent "sub-1", which
// nests "sub-2". Continuations of the subagents' entities are often
// untagged, as the protocol allows.
func delegation() []core.Event {
	no := false
	return evs(
		started(),
		&core.ToolCallStart{ToolCallID: "tc-d", ToolCallName: "delegate", ParentMessageID: "m-parent"},
		&core.ToolCallArgs{ToolCallID: "tc-d", Delta: "{}"},
		&core.ToolCallEnd{ToolCallID: "tc-d"},
		&core.SubagentStarted{SubagentRunID: "sub-1", Name: "planner", ParentToolCallID: "tc-d", ParentMessageID: "m-parent"},
		tagged("sub-1", &core.TextMessageStart{MessageID: "m-sub", Role: core.RoleAssistant}),
		tagged("sub-1", &core.TextMessageContent{MessageID: "m-sub", Delta: "Two tasks."}),
		&core.TextMessageEnd{MessageID: "m-sub"},
		tagged("sub-1", &core.ToolCallStart{ToolCallID: "tc-sub", ToolCallName: "estimate"}),
		&core.ToolCallArgs{ToolCallID: "tc-sub", Delta: "{}"},
		tagged("sub-1", &core.ToolCallEnd{ToolCallID: "tc-sub"}),
		&core.ToolCallResult{MessageID: "r-sub", ToolCallID: "tc-sub", Content: core.TextContent("1d")},
		tagged("sub-1", &core.StepStarted{StepName: "work"}),
		tagged("sub-1", &core.StepFinished{StepName: "work"}),
		tagged("sub-1", &core.StateSnapshot{Snapshot: map[string]any{"n": 1}}),
		tagged("sub-1", &core.ReasoningStart{MessageID: "rs-sub"}),
		tagged("sub-1", &core.ReasoningMessageStart{MessageID: "rs-sub"}),
		&core.ReasoningMessageContent{MessageID: "rs-sub", Delta: "hmm"},
		&core.ReasoningMessageEnd{MessageID: "rs-sub"},
		&core.ReasoningEnd{MessageID: "rs-sub"},
		&core.ReasoningEncryptedValue{Subtype: core.EncryptedMessage, EntityID: "rs-sub", EncryptedValue: "enc"},
		tagged("sub-1", &core.ActivitySnapshot{MessageID: "act-sub", ActivityType: "progress", Content: map[string]any{"p": 0}}),
		&core.ActivityDelta{MessageID: "act-sub", ActivityType: "progress", Patch: []core.PatchOp{{Op: "replace", Path: "/p", Value: 1}}},
		&core.ActivitySnapshot{MessageID: "act-sub", ActivityType: "progress", Content: map[string]any{"p": 2}, Replace: &no},
		tagged("sub-1", &core.Custom{Name: "note", Value: 1}),
		&core.SubagentStarted{SubagentRunID: "sub-2", Name: "estimator", ParentSubagentRunID: "sub-1"},
		tagged("sub-2", &core.TextMessageChunk{MessageID: "m-sub2", Delta: "About"}),
		&core.TextMessageChunk{Delta: " a day."}, // the sole open lane is sub-2's
		tagged("sub-2", &core.StateDelta{Delta: []core.PatchOp{{Op: "add", Path: "/m", Value: 2}}}),
		&core.SubagentFinished{SubagentRunID: "sub-2"},
		&core.SubagentFinished{SubagentRunID: "sub-1", Result: map[string]any{"tasks": 2}},
		&core.ToolCallResult{MessageID: "r-d", ToolCallID: "tc-d", Content: core.TextContent(`{"tasks":2}`)},
		&core.TextMessageStart{MessageID: "m-final", Role: core.RoleAssistant},
		&core.TextMessageContent{MessageID: "m-final", Delta: "Plan ready."},
		&core.TextMessageEnd{MessageID: "m-final"},
		&core.MessagesSnapshot{Messages: []core.Message{
			&core.AssistantMessage{ID: "m-parent", ToolCalls: []core.ToolCall{{ID: "tc-d", Function: core.FunctionCall{Name: "delegate", Arguments: "{}"}}}},
			&core.ToolMessage{ID: "r-d", ToolCallID: "tc-d", Content: core.TextContent(`{"tasks":2}`)},
			&core.AssistantMessage{ID: "m-sub", Content: "Two tasks.", SubagentRunID: "sub-1",
				ToolCalls: []core.ToolCall{{ID: "tc-sub", Function: core.FunctionCall{Name: "estimate", Arguments: "{}"}}}},
			&core.ToolMessage{ID: "r-sub", ToolCallID: "tc-sub", Content: core.TextContent("1d"), SubagentRunID: "sub-1"},
			&core.ReasoningMessage{ID: "rs-sub", Content: "hmm", SubagentRunID: "sub-1"},
			&core.AssistantMessage{ID: "m-sub2", Content: "About a day.", SubagentRunID: "sub-2"},
			&core.AssistantMessage{ID: "m-final", Content: "Plan ready."},
		}},
		&core.RunFinished{ThreadID: "thread-1", RunID: "run-1", Outcome: &core.Outcome{
			Type: core.OutcomeSuccess, PendingToolCallIDs: []string{"tc-sub", "tc-front"},
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
	for _, m := range out[len(out)-2].(*core.MessagesSnapshot).Messages {
		ids = append(ids, m.MessageID())
	}
	if want := []string{"m-parent", "r-d", "m-final"}; !slices.Equal(ids, want) {
		t.Errorf("snapshot messages = %v, want %v", ids, want)
	}
	if got := out[len(out)-1].(*core.RunFinished).Outcome.PendingToolCallIDs; !slices.Equal(got, []string{"tc-front"}) {
		t.Errorf("pending = %v, want [tc-front]", got)
	}
	// The subagent's attributed state updates pass, untagged.
	for _, ev := range out {
		if ev.Type() == core.TypeStateSnapshot || ev.Type() == core.TypeStateDelta {
			if core.SubagentOf(ev) != "" {
				t.Errorf("%s keeps its tag", describe(ev))
			}
		}
	}
	// The input events are the agent's: they must not change.
	src := delegation()
	runChain(t, input(), src, SubagentVisibility(VisibilityHidden))
	if core.SubagentOf(src[14]) != "sub-1" || len(src[len(src)-2].(*core.MessagesSnapshot).Messages) != 7 {
		t.Error("the transformer modified the events it was given")
	}
}

func TestSubagentVisibilityHiddenInterrupts(t *testing.T) {
	in := evs(started(),
		&core.SubagentStarted{SubagentRunID: "sub-1", Name: "approver"},
		tagged("sub-1", &core.ToolCallStart{ToolCallID: "tc-sub", ToolCallName: "delete"}),
		tagged("sub-1", &core.ToolCallEnd{ToolCallID: "tc-sub"}),
		&core.SubagentFinished{SubagentRunID: "sub-1", Outcome: &core.SubagentOutcome{Type: "suspended", InterruptIDs: []string{"i1"}}},
		&core.RunFinished{ThreadID: "thread-1", RunID: "run-1", Outcome: &core.Outcome{Type: core.OutcomeInterrupt, Interrupts: []core.Interrupt{
			{ID: "i1", Reason: "tool_approval", ToolCallID: "tc-sub", SubagentRunID: "sub-1"},
		}}})
	out := runChain(t, input(), in, SubagentVisibility(VisibilityHidden))
	sameList(t, describeList(out), []string{"RUN_STARTED", "RUN_FINISHED interrupt"})
	got := out[1].(*core.RunFinished).Outcome.Interrupts
	if len(got) != 1 || got[0].ID != "i1" || got[0].SubagentRunID != "" || got[0].ToolCallID != "" {
		t.Errorf("interrupts = %+v, want i1 without its subagent and call", got)
	}
	noLeak(t, out, "sub-1")
	noLeak(t, out, "tc-sub")
}

func TestSubagentVisibilityHiddenSeedsOwnersFromInput(t *testing.T) {
	in := input()
	in.Messages = []core.Message{
		&core.AssistantMessage{ID: "m-old", SubagentRunID: "sub-0", ToolCalls: []core.ToolCall{{ID: "tc-old", Function: core.FunctionCall{Name: "x"}}}},
	}
	// A later run's untagged result for a call a subagent made earlier.
	events := evs(started(),
		&core.ToolCallResult{MessageID: "r-old", ToolCallID: "tc-old", Content: core.TextContent("late")},
		&core.ReasoningEncryptedValue{Subtype: core.EncryptedToolCall, EntityID: "tc-old", EncryptedValue: "e"},
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
