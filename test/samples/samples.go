package samples

import (
	"encoding/json"

	"github.com/agui-go/agui/core"
)

// Events returns the sample events in a plausible stream order (it is not a
// valid run; verification is not the point).
func Events() []core.Event {
	base := core.Base{
		Timestamp: 1767225600123,
		RawEvent:  map[string]any{"provider": "openai", "seq": 7.0, "tags": []any{"a", nil, true}},
		Metadata:  map[string]any{"trace": "t-1", "depth": 2.5, "nested": map[string]any{"k": []any{}}},
	}
	sub := core.Attribution{SubagentRunID: "sub-1"}
	pending := core.Success("tc-frontend")
	interrupted := core.Interrupted(
		core.Interrupt{ID: "int-1", Reason: "approval", Message: "Delete the file?", ToolCallID: "tc-2",
			ResponseSchema: map[string]any{"type": "object", "properties": map[string]any{"ok": map[string]any{"type": "boolean"}}},
			ExpiresAt:      "2026-01-01T00:00:00Z", Metadata: map[string]any{"ui": "modal"}, SubagentRunID: "sub-1"},
		core.NewInterrupt("int-2", "input"),
	)
	cancelled := core.Cancelled()
	success := core.Success()
	return []core.Event{
		&core.RunStarted{Base: core.Base{Timestamp: 1767225600000}, ThreadID: "thread-1", RunID: "run-1",
			ParentRunID: "run-0", ProtocolVersion: core.ProtocolVersion, Input: input()},
		&core.RunStarted{ThreadID: "thread-1", RunID: "run-2", ProtocolVersion: core.ProtocolVersion,
			Input: &core.RunAgentInput{ThreadID: "thread-1", RunID: "run-2"}},
		&core.RunStarted{ThreadID: "thread-1", RunID: "run-3"},

		&core.TextMessageStart{Base: base, MessageID: "msg-1", Role: core.RoleAssistant, Name: "helper"},
		&core.TextMessageContent{MessageID: "msg-1", Delta: "Hello, <world> & \"friends\"\n\u2028 émoji 🎉"},
		&core.TextMessageContent{MessageID: "msg-1", Delta: ""},
		&core.TextMessageEnd{MessageID: "msg-1"},
		&core.TextMessageStart{Attribution: sub, MessageID: "msg-2"},
		&core.TextMessageContent{Attribution: sub, MessageID: "msg-2", Delta: "from a subagent"},
		&core.TextMessageEnd{Attribution: sub, MessageID: "msg-2"},
		&core.TextMessageChunk{Attribution: sub, MessageID: "msg-3", Role: core.RoleAssistant, Delta: "chunk", Name: "n"},
		&core.TextMessageChunk{Delta: "continuation"},
		&core.TextMessageChunk{},

		&core.ToolCallStart{Base: base, ToolCallID: "tc-1", ToolCallName: "search", ParentMessageID: "msg-1"},
		&core.ToolCallArgs{ToolCallID: "tc-1", Delta: `{"q":"go`},
		&core.ToolCallArgs{ToolCallID: "tc-1", Delta: `lang"}`},
		&core.ToolCallEnd{ToolCallID: "tc-1"},
		&core.ToolCallStart{Attribution: sub, ToolCallID: "tc-2", ToolCallName: "delete"},
		&core.ToolCallEnd{Attribution: sub, ToolCallID: "tc-2"},
		&core.ToolCallChunk{Attribution: sub, ToolCallID: "tc-3", ToolCallName: "f", ParentMessageID: "msg-3", Delta: "{}"},
		&core.ToolCallChunk{Delta: ""},
		&core.ToolCallResult{MessageID: "res-1", ToolCallID: "tc-1", Content: core.TextContent("3 results"), Role: core.RoleTool},
		&core.ToolCallResult{Base: base, Attribution: sub, MessageID: "res-2", ToolCallID: "tc-3", Content: parts()},
		&core.ToolCallResult{MessageID: "res-3", ToolCallID: "tc-4", Content: core.PartsContent()},
		&core.ToolCallResult{MessageID: "res-4", ToolCallID: "tc-5", Content: core.TextContent("")},

		&core.StateSnapshot{Snapshot: map[string]any{"count": 3.0, "items": []any{"a", map[string]any{"b": nil}}, "ok": false}},
		&core.StateSnapshot{Attribution: sub},
		&core.StateSnapshot{Snapshot: json.RawMessage(`[1, 2.5, "x", null, {"y": {}}]`)},
		&core.StateDelta{Delta: []core.PatchOp{
			{Op: "add", Path: "/items/-", Value: "c"},
			{Op: "add", Path: "/nothing"},
			{Op: "replace", Path: "/count", Value: 4},
			{Op: "remove", Path: "/ok"},
			{Op: "remove", Path: "/old", Value: "leftover"},
			{Op: "move", From: "/a", Path: "/b"},
			{Op: "copy", From: "", Path: "/whole"},
			{Op: "test", Path: "/a~1b~0c", Value: map[string]any{"deep": []any{1.0, 2.0}}},
		}},
		&core.StateDelta{Attribution: sub, Delta: []core.PatchOp{}},

		&core.MessagesSnapshot{Base: base, Messages: messages()},
		&core.MessagesSnapshot{Messages: []core.Message{}},

		&core.ActivitySnapshot{Attribution: sub, MessageID: "act-1", ActivityType: "PLAN",
			Content: map[string]any{"steps": []any{map[string]any{"title": "one", "done": true}}}, Replace: core.Bool(false)},
		&core.ActivitySnapshot{MessageID: "act-2", ActivityType: "EMPTY", Replace: core.Bool(true)},
		&core.ActivitySnapshot{MessageID: "act-3", ActivityType: "DEFAULT", Content: map[string]any{}},
		&core.ActivityDelta{MessageID: "act-1", ActivityType: "PLAN", Patch: []core.PatchOp{
			{Op: "replace", Path: "/steps/0/done", Value: false},
			{Op: "add", Path: "/steps/-", Value: nil},
		}},

		&core.Raw{Event: map[string]any{"type": "delta", "n": 1.0}, Source: "langgraph"},
		&core.Raw{Attribution: sub},
		&core.Custom{Name: "ping", Value: []any{"x", 1.0}},
		&core.Custom{Attribution: sub, Name: "null-value"},

		&core.StepStarted{StepName: "plan"},
		&core.StepFinished{StepName: "plan"},
		&core.StepStarted{Attribution: sub, StepName: "plan"},
		&core.StepFinished{Attribution: sub, StepName: "plan"},

		&core.ReasoningStart{MessageID: "r-1"},
		&core.ReasoningMessageStart{MessageID: "r-1"},
		&core.ReasoningMessageContent{MessageID: "r-1", Delta: "thinking…"},
		&core.ReasoningMessageContent{Attribution: sub, MessageID: "r-2", Delta: ""},
		&core.ReasoningMessageEnd{MessageID: "r-1"},
		&core.ReasoningMessageChunk{Attribution: sub, MessageID: "r-3", Delta: "chunked"},
		&core.ReasoningMessageChunk{},
		&core.ReasoningEnd{Attribution: sub, MessageID: "r-1"},
		&core.ReasoningEncryptedValue{Subtype: core.EncryptedMessage, EntityID: "r-1", EncryptedValue: "b64=="},
		&core.ReasoningEncryptedValue{Attribution: sub, Subtype: core.EncryptedToolCall, EntityID: "tc-1", EncryptedValue: "opaque"},

		&core.SubagentStarted{Base: base, SubagentRunID: "sub-1", Name: "researcher", Description: "finds things",
			ParentSubagentRunID: "sub-0", ParentToolCallID: "tc-9", ParentMessageID: "msg-9"},
		&core.SubagentStarted{SubagentRunID: "sub-2", Name: "writer"},
		&core.SubagentStarted{SubagentRunID: "", Name: ""},
		&core.SubagentFinished{SubagentRunID: "sub-1", Result: map[string]any{"found": 3.0},
			Outcome: &core.SubagentOutcome{Type: "success"}},
		&core.SubagentFinished{SubagentRunID: "sub-2", Outcome: &core.SubagentOutcome{Type: "suspended", InterruptIDs: []string{"int-1"}}},
		&core.SubagentFinished{SubagentRunID: "sub-3", Outcome: &core.SubagentOutcome{Type: "suspended"}},
		&core.SubagentFinished{SubagentRunID: "sub-4", Result: "plain"},
		&core.SubagentError{SubagentRunID: "sub-5", Message: "boom", Code: "TOOL_FAILED"},
		&core.SubagentError{SubagentRunID: "sub-6", Message: ""},

		&core.RunFinished{ThreadID: "thread-1", RunID: "run-1"},
		&core.RunFinished{Base: base, ThreadID: "thread-1", RunID: "run-1", Result: map[string]any{"answer": 42.0},
			Outcome: &pending, Usage: usage()},
		&core.RunFinished{ThreadID: "thread-1", RunID: "run-1", Outcome: &success, Result: "done"},
		&core.RunFinished{ThreadID: "thread-1", RunID: "run-1", Outcome: &interrupted},
		&core.RunFinished{ThreadID: "thread-1", RunID: "run-1", Outcome: &cancelled, Usage: usage()[:1]},
		&core.RunError{Message: "model overloaded", Code: "AGENT_ERROR", Usage: usage()},
		&core.RunError{Base: base, Message: "stopped"},
	}
}

func usage() []core.TokenUsage {
	return []core.TokenUsage{
		{Provider: "openai", Model: "gpt-x", InputTokens: core.Tokens(1200), OutputTokens: core.Tokens(300),
			TotalTokens: core.Tokens(1500), ReasoningTokens: core.Tokens(100), CachedInputTokens: core.Tokens(1000),
			CacheWriteInputTokens: core.Tokens(0)},
		{Model: "small", InputTokens: core.Tokens(9007199254740991)},
		{},
	}
}

func parts() core.Content {
	return core.PartsContent(
		core.ContentPart{Type: core.PartText, ID: "p-1", Text: "see attached", Metadata: map[string]any{"source": "search", "rank": 1.0}},
		core.TextPart(""),
		core.ContentPart{Type: core.PartImage, ID: "p-2", Source: &core.PartSource{Type: core.SourceData, Value: "iVBORw0KGgo=", MimeType: "image/png"}},
		core.ContentPart{Type: core.PartAudio, ID: "p-3", Source: &core.PartSource{Type: core.SourceURL, Value: "https://example.com/a.mp3"}, Metadata: "narration"},
		core.ContentPart{Type: core.PartVideo, Source: &core.PartSource{Type: core.SourceURL, Value: "https://example.com/v.mp4", MimeType: "video/mp4"},
			Metadata: map[string]any{"seconds": 12.5}},
		core.ContentPart{Type: core.PartDocument, ID: "p-5", Source: &core.PartSource{Type: core.SourceFile, Value: "file-abc", Provider: "openai", MimeType: "application/pdf"}},
		core.ContentPart{Type: core.PartDocument, Source: &core.PartSource{Type: core.SourceFile, Value: "file-def"}, Metadata: []any{"x"}},
		core.ContentPart{Type: core.PartImage, Source: &core.PartSource{Type: core.SourceURL, Value: "https://example.com/i.png"}},
	)
}

func messages() []core.Message {
	return []core.Message{
		&core.DeveloperMessage{ID: "m-dev", Content: "be terse", Name: "ops", EncryptedValue: "enc-dev",
			Metadata: map[string]any{"v": 1.0}},
		&core.SystemMessage{ID: "m-sys", Content: ""},
		&core.UserMessage{ID: "m-user-1", Content: core.TextContent("hi"), Name: "ann"},
		&core.UserMessage{ID: "m-user-2", Content: parts(), SubagentRunID: "sub-1", Metadata: map[string]any{}},
		&core.UserMessage{ID: "m-user-3", Content: core.PartsContent()},
		&core.AssistantMessage{ID: "m-asst-1", Content: "calling tools", Name: "helper", ToolCalls: []core.ToolCall{
			{ID: "tc-1", Function: core.FunctionCall{Name: "search", Arguments: `{"q":"golang"}`},
				EncryptedValue: "enc-tc", Metadata: map[string]any{"cost": 0.5}},
			{ID: "tc-2", Function: core.FunctionCall{Name: "noop", Arguments: ""}},
		}, SubagentRunID: "sub-1", EncryptedValue: "enc-asst"},
		&core.AssistantMessage{ID: "m-asst-2"},
		&core.ToolMessage{ID: "m-tool-1", ToolCallID: "tc-1", Content: core.TextContent("3 results"), Error: "partial"},
		&core.ToolMessage{ID: "m-tool-2", ToolCallID: "tc-2", Content: parts(), SubagentRunID: "sub-1"},
		&core.ActivityMessage{ID: "m-act-1", ActivityType: "PLAN", Content: map[string]any{"steps": []any{"a"}},
			Metadata: map[string]any{"pinned": true}, SubagentRunID: "sub-1"},
		&core.ActivityMessage{ID: "m-act-2", ActivityType: "EMPTY"},
		&core.ReasoningMessage{ID: "m-reason", Content: "because", EncryptedValue: "enc-r"},
		&core.ReasoningMessage{ID: "m-reason-2", Content: ""},
	}
}

func input() *core.RunAgentInput {
	return &core.RunAgentInput{
		ThreadID: "thread-1", RunID: "run-1", ProtocolVersion: core.ProtocolVersion, ParentRunID: "run-0",
		State:    map[string]any{"count": 3.0, "list": []any{}},
		Messages: messages(),
		Tools: []core.Tool{
			{Name: "search", Description: "web search",
				Parameters: map[string]any{"type": "object", "properties": map[string]any{"q": map[string]any{"type": "string"}}},
				Metadata:   map[string]any{"ui": "inline"}},
			{Name: "noop"},
		},
		Context:        []core.ContextItem{{Description: "user locale", Value: "fr-FR"}, {}},
		ForwardedProps: map[string]any{},
		Resume: []core.ResumeEntry{
			{InterruptID: "int-0", Status: core.ResumeResolved, Payload: map[string]any{"ok": true}, Metadata: map[string]any{"sig": "x"}},
			{InterruptID: "int-00", Status: core.ResumeCancelled},
		},
	}
}
