package transformers

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// noLeak fails t if any event of out mentions id in any field.
func noLeak(t *testing.T, out []agui.Event, id string) {
	t.Helper()
	for i, ev := range out {
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatalf("event %d: %v", i, err)
		}
		if strings.Contains(string(b), id) {
			t.Errorf("event %d (%s) leaks %q: %s", i, describe(ev), id, b)
		}
	}
}

func TestFilterToolCalls(t *testing.T) {
	tests := []struct {
		name   string
		filter core.TransformerFactory
		in     []agui.Event
		want   []string
		hidden string // an id that must appear nowhere in the output
	}{
		{
			name:   "deny hides every event of the call",
			filter: DenyToolCalls("secret"),
			in: stream(evs(started()),
				call("tc-secret", "secret", `{"q":1}`, "classified"),
				call("tc-search", "search", `{"q":2}`, "found"),
				evs(finished())),
			want: []string{
				"RUN_STARTED",
				"TOOL_CALL_START tc-search", "TOOL_CALL_ARGS tc-search", "TOOL_CALL_END tc-search", "TOOL_CALL_RESULT tc-search r-tc-search",
				"RUN_FINISHED success",
			},
			hidden: "tc-secret",
		},
		{
			name:   "allow shows only the named tools",
			filter: AllowToolCalls("search"),
			in: stream(evs(started()),
				call("tc-secret", "secret", `{}`, "x"),
				call("tc-search", "search", `{}`, "y"),
				call("tc-other", "other", `{}`, "z"),
				evs(finished())),
			want: []string{
				"RUN_STARTED",
				"TOOL_CALL_START tc-search", "TOOL_CALL_ARGS tc-search", "TOOL_CALL_END tc-search", "TOOL_CALL_RESULT tc-search r-tc-search",
				"RUN_FINISHED success",
			},
			hidden: "tc-secret",
		},
		{
			name:   "allow with no names hides every call",
			filter: AllowToolCalls(),
			in:     stream(evs(started()), call("tc-secret", "search", `{}`, "x"), evs(finished())),
			want:   []string{"RUN_STARTED", "RUN_FINISHED success"},
			hidden: "tc-secret",
		},
		{
			name:   "nil keep shows everything",
			filter: FilterToolCalls(nil),
			in:     stream(evs(started()), call("tc-1", "secret", `{}`, "x"), evs(finished())),
			want: []string{
				"RUN_STARTED",
				"TOOL_CALL_START tc-1", "TOOL_CALL_ARGS tc-1", "TOOL_CALL_END tc-1", "TOOL_CALL_RESULT tc-1 r-tc-1",
				"RUN_FINISHED success",
			},
		},
		{
			name:   "chunks are traced by id and by lane",
			filter: DenyToolCalls("secret"),
			in: evs(started(),
				&agui.ToolCallChunk{ToolCallID: "tc-secret", ToolCallName: "secret", Delta: `{"a"`},
				&agui.ToolCallChunk{Delta: `:1}`}, // continues tc-secret's lane
				&agui.ToolCallChunk{ToolCallID: "tc-secret", Delta: ``},
				&agui.ToolCallChunk{ToolCallID: "tc-ok", ToolCallName: "search", Delta: `{`},
				&agui.ToolCallChunk{Delta: `}`}, // continues tc-ok's lane
				// The verifier knows no chunk-opened call, so no result of
				// tc-ok here; the client would accept one.
				&agui.ToolCallResult{MessageID: "r1", ToolCallID: "tc-secret", Content: agui.TextContent("x")},
				finished()),
			want: []string{
				"RUN_STARTED",
				"TOOL_CALL_CHUNK tc-ok", "TOOL_CALL_CHUNK",
				"RUN_FINISHED success",
			},
			hidden: "tc-secret",
		},
		{
			name:   "chunk lanes of subagents are kept apart",
			filter: DenyToolCalls("secret"),
			in: evs(started(),
				tagged("s1", &agui.ToolCallChunk{ToolCallID: "tc-secret", ToolCallName: "secret", Delta: `{`}),
				&agui.ToolCallChunk{ToolCallID: "tc-ok", ToolCallName: "search", Delta: `{`},
				tagged("s1", &agui.ToolCallChunk{Delta: `}`}),
				&agui.ToolCallChunk{Delta: `}`},
				&agui.TextMessageStart{MessageID: "m1", Role: agui.RoleAssistant},
				&agui.TextMessageEnd{MessageID: "m1"},
				tagged("s1", &agui.StepStarted{StepName: "s"}),
				tagged("s1", &agui.StepFinished{StepName: "s"}),
				finished()),
			want: []string{
				"RUN_STARTED",
				"TOOL_CALL_CHUNK tc-ok", "TOOL_CALL_CHUNK",
				"TEXT_MESSAGE_START m1", "TEXT_MESSAGE_END m1",
				"STEP_STARTED s @s1", "STEP_FINISHED s @s1",
				"RUN_FINISHED success",
			},
			hidden: "tc-secret",
		},
		{
			name:   "encrypted values of hidden calls and their results go",
			filter: DenyToolCalls("secret"),
			in: stream(evs(started()),
				call("tc-secret", "secret", `{}`, "x"),
				call("tc-ok", "search", `{}`, "y"),
				evs(
					&agui.ReasoningEncryptedValue{Subtype: agui.EncryptedToolCall, EntityID: "tc-secret", EncryptedValue: "e1"},
					&agui.ReasoningEncryptedValue{Subtype: agui.EncryptedMessage, EntityID: "r-tc-secret", EncryptedValue: "e2"},
					&agui.ReasoningEncryptedValue{Subtype: agui.EncryptedToolCall, EntityID: "tc-ok", EncryptedValue: "e3"},
					finished())),
			want: []string{
				"RUN_STARTED",
				"TOOL_CALL_START tc-ok", "TOOL_CALL_ARGS tc-ok", "TOOL_CALL_END tc-ok", "TOOL_CALL_RESULT tc-ok r-tc-ok",
				"REASONING_ENCRYPTED_VALUE tc-ok",
				"RUN_FINISHED success",
			},
			hidden: "tc-secret",
		},
		{
			name:   "pending ids and interrupt links lose hidden calls",
			filter: DenyToolCalls("secret"),
			in: evs(started(),
				&agui.ToolCallStart{ToolCallID: "tc-secret", ToolCallName: "secret"},
				&agui.ToolCallEnd{ToolCallID: "tc-secret"},
				&agui.ToolCallStart{ToolCallID: "tc-ok", ToolCallName: "ask_user"},
				&agui.ToolCallEnd{ToolCallID: "tc-ok"},
				&agui.RunFinished{ThreadID: "thread-1", RunID: "run-1", Outcome: &agui.Outcome{
					Type: agui.OutcomeSuccess, PendingToolCallIDs: []string{"tc-secret", "tc-ok"},
				}}),
			want: []string{
				"RUN_STARTED",
				"TOOL_CALL_START tc-ok", "TOOL_CALL_END tc-ok",
				"RUN_FINISHED success",
			},
			hidden: "tc-secret",
		},
		{
			name:   "a subagent spawned by a hidden call loses the link only",
			filter: DenyToolCalls("delegate"),
			in: stream(evs(started()),
				call("tc-secret", "delegate", `{}`, "x")[:3],
				evs(
					&agui.SubagentStarted{SubagentRunID: "s1", Name: "planner", ParentToolCallID: "tc-secret"},
					tagged("s1", &agui.TextMessageStart{MessageID: "m1", Role: agui.RoleAssistant}),
					tagged("s1", &agui.TextMessageEnd{MessageID: "m1"}),
					&agui.SubagentFinished{SubagentRunID: "s1"},
					finished())),
			want: []string{
				"RUN_STARTED",
				"SUBAGENT_STARTED s1",
				"TEXT_MESSAGE_START m1 @s1", "TEXT_MESSAGE_END m1 @s1",
				"SUBAGENT_FINISHED s1",
				"RUN_FINISHED success",
			},
			hidden: "tc-secret",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := runChain(t, input(), tt.in, tt.filter)
			sameList(t, describeList(out), tt.want)
			if tt.hidden != "" {
				noLeak(t, out, tt.hidden)
			}
		})
	}
}

func TestFilterToolCallsInterrupt(t *testing.T) {
	outcome := &agui.Outcome{Type: agui.OutcomeInterrupt, Interrupts: []agui.Interrupt{
		{ID: "i1", Reason: "tool_approval", ToolCallID: "tc-secret"},
		{ID: "i2", Reason: "tool_approval", ToolCallID: "tc-ok"},
	}}
	in := stream(evs(started()),
		call("tc-secret", "secret", `{}`, "x")[:3],
		call("tc-ok", "search", `{}`, "x")[:3],
		evs(&agui.RunFinished{ThreadID: "thread-1", RunID: "run-1", Outcome: outcome}))
	out := runChain(t, input(), in, DenyToolCalls("secret"))
	noLeak(t, out, "tc-secret")
	got := out[len(out)-1].(*agui.RunFinished).Outcome.Interrupts
	if len(got) != 2 || got[0].ID != "i1" || got[0].ToolCallID != "" || got[1].ToolCallID != "tc-ok" {
		t.Errorf("interrupts = %+v, want both kept, i1 without its hidden call", got)
	}
	if outcome.Interrupts[0].ToolCallID != "tc-secret" {
		t.Error("the agent's own outcome was modified")
	}
}

func TestFilterToolCallsSnapshot(t *testing.T) {
	history := []agui.Message{
		&agui.UserMessage{ID: "u1", Content: agui.TextContent("hi")},
		// Calls of an earlier run: judged by name.
		&agui.AssistantMessage{ID: "a0", ToolCalls: []agui.ToolCall{
			{ID: "tc-old", Function: agui.FunctionCall{Name: "secret", Arguments: "{}"}},
		}},
		&agui.ToolMessage{ID: "r-old", ToolCallID: "tc-old", Content: agui.TextContent("x")},
		&agui.AssistantMessage{ID: "a1", Content: "Looking.", ToolCalls: []agui.ToolCall{
			{ID: "tc-secret", Function: agui.FunctionCall{Name: "secret", Arguments: "{}"}},
			{ID: "tc-ok", Function: agui.FunctionCall{Name: "search", Arguments: "{}"}},
		}},
		&agui.ToolMessage{ID: "r-secret", ToolCallID: "tc-secret", Content: agui.TextContent("x")},
		&agui.ToolMessage{ID: "r-ok", ToolCallID: "tc-ok", Content: agui.TextContent("y")},
	}
	snap := &agui.MessagesSnapshot{Messages: history}
	out := runChain(t, input(), evs(started(), snap, finished()), DenyToolCalls("secret"))
	noLeak(t, out, "tc-secret")
	noLeak(t, out, "tc-old")
	got := out[1].(*agui.MessagesSnapshot).Messages
	var ids []string
	for _, m := range got {
		ids = append(ids, m.MessageID())
	}
	if want := []string{"u1", "a1", "r-ok"}; !slices.Equal(ids, want) {
		t.Fatalf("messages = %v, want %v", ids, want)
	}
	if a := got[1].(*agui.AssistantMessage); len(a.ToolCalls) != 1 || a.ToolCalls[0].ID != "tc-ok" || a.Content != "Looking." {
		t.Errorf("a1 = %+v, want its text and the search call only", a)
	}
	if len(history) != 6 || len(history[3].(*agui.AssistantMessage).ToolCalls) != 2 {
		t.Error("the snapshot's own messages were modified")
	}
}

func TestFilterToolCallsUnchangedEventsAreTheSame(t *testing.T) {
	snap := &agui.MessagesSnapshot{Messages: []agui.Message{&agui.UserMessage{ID: "u1", Content: agui.TextContent("hi")}}}
	fin := &agui.RunFinished{ThreadID: "thread-1", RunID: "run-1", Outcome: &agui.Outcome{Type: agui.OutcomeSuccess, PendingToolCallIDs: []string{"x"}}}
	out := runChain(t, input(), evs(started(), snap, fin), DenyToolCalls("secret"))
	if out[1] != agui.Event(snap) || out[2] != agui.Event(fin) {
		t.Error("events with nothing to hide were copied")
	}
}
