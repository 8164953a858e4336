package aguitest

import (
	"encoding/json"

	"github.com/agui-go/agui"
)

// Samples returns the sample events in a plausible stream order (it is not a
// valid run; verification is not the point).
func Samples() []agui.Event {
	base := agui.Base{
		Timestamp: 1767225600123,
		RawEvent:  map[string]any{"provider": "openai", "seq": 7.0, "tags": []any{"a", nil, true}},
		Metadata:  map[string]any{"trace": "t-1", "depth": 2.5, "nested": map[string]any{"k": []any{}}},
	}
	sub := agui.Attribution{SubagentRunID: "sub-1"}
	pending := agui.Success("tc-frontend")
	interrupted := agui.Interrupted(
		agui.Interrupt{ID: "int-1", Reason: "approval", Message: "Delete the file?", ToolCallID: "tc-2",
			ResponseSchema: map[string]any{"type": "object", "properties": map[string]any{"ok": map[string]any{"type": "boolean"}}},
			ExpiresAt:      "2026-01-01T00:00:00Z", Metadata: map[string]any{"ui": "modal"}, SubagentRunID: "sub-1"},
		agui.NewInterrupt("int-2", "input"),
	)
	cancelled := agui.Cancelled()
	success := agui.Success()
	return []agui.Event{
		&agui.RunStarted{Base: agui.Base{Timestamp: 1767225600000}, ThreadID: "thread-1", RunID: "run-1",
			ParentRunID: "run-0", ProtocolVersion: agui.ProtocolVersion, Input: input()},
		&agui.RunStarted{ThreadID: "thread-1", RunID: "run-2", ProtocolVersion: agui.ProtocolVersion,
			Input: &agui.RunAgentInput{ThreadID: "thread-1", RunID: "run-2"}},
		&agui.RunStarted{ThreadID: "thread-1", RunID: "run-3"},

		&agui.TextMessageStart{Base: base, MessageID: "msg-1", Role: agui.RoleAssistant, Name: "helper"},
		&agui.TextMessageContent{MessageID: "msg-1", Delta: "Hello, <world> & \"friends\"\n\u2028 émoji 🎉"},
		&agui.TextMessageContent{MessageID: "msg-1", Delta: ""},
		&agui.TextMessageEnd{MessageID: "msg-1"},
		&agui.TextMessageStart{Attribution: sub, MessageID: "msg-2"},
		&agui.TextMessageContent{Attribution: sub, MessageID: "msg-2", Delta: "from a subagent"},
		&agui.TextMessageEnd{Attribution: sub, MessageID: "msg-2"},
		&agui.TextMessageChunk{Attribution: sub, MessageID: "msg-3", Role: agui.RoleAssistant, Delta: "chunk", Name: "n"},
		&agui.TextMessageChunk{Delta: "continuation"},
		&agui.TextMessageChunk{},

		&agui.ToolCallStart{Base: base, ToolCallID: "tc-1", ToolCallName: "search", ParentMessageID: "msg-1"},
		&agui.ToolCallArgs{ToolCallID: "tc-1", Delta: `{"q":"go`},
		&agui.ToolCallArgs{ToolCallID: "tc-1", Delta: `lang"}`},
		&agui.ToolCallEnd{ToolCallID: "tc-1"},
		&agui.ToolCallStart{Attribution: sub, ToolCallID: "tc-2", ToolCallName: "delete"},
		&agui.ToolCallEnd{Attribution: sub, ToolCallID: "tc-2"},
		&agui.ToolCallChunk{Attribution: sub, ToolCallID: "tc-3", ToolCallName: "f", ParentMessageID: "msg-3", Delta: "{}"},
		&agui.ToolCallChunk{Delta: ""},
		&agui.ToolCallResult{MessageID: "res-1", ToolCallID: "tc-1", Content: agui.TextContent("3 results"), Role: agui.RoleTool},
		&agui.ToolCallResult{Base: base, Attribution: sub, MessageID: "res-2", ToolCallID: "tc-3", Content: parts()},
		&agui.ToolCallResult{MessageID: "res-3", ToolCallID: "tc-4", Content: agui.PartsContent()},
		&agui.ToolCallResult{MessageID: "res-4", ToolCallID: "tc-5", Content: agui.TextContent("")},

		&agui.StateSnapshot{Snapshot: map[string]any{"count": 3.0, "items": []any{"a", map[string]any{"b": nil}}, "ok": false}},
		&agui.StateSnapshot{Attribution: sub},
		&agui.StateSnapshot{Snapshot: json.RawMessage(`[1, 2.5, "x", null, {"y": {}}]`)},
		&agui.StateDelta{Delta: []agui.PatchOp{
			{Op: "add", Path: "/items/-", Value: "c"},
			{Op: "add", Path: "/nothing"},
			{Op: "replace", Path: "/count", Value: 4},
			{Op: "remove", Path: "/ok"},
			{Op: "remove", Path: "/old", Value: "leftover"},
			{Op: "move", From: "/a", Path: "/b"},
			{Op: "copy", From: "", Path: "/whole"},
			{Op: "test", Path: "/a~1b~0c", Value: map[string]any{"deep": []any{1.0, 2.0}}},
		}},
		&agui.StateDelta{Attribution: sub, Delta: []agui.PatchOp{}},

		&agui.MessagesSnapshot{Base: base, Messages: messages()},
		&agui.MessagesSnapshot{Messages: []agui.Message{}},

		&agui.ActivitySnapshot{Attribution: sub, MessageID: "act-1", ActivityType: "PLAN",
			Content: map[string]any{"steps": []any{map[string]any{"title": "one", "done": true}}}, Replace: new(false)},
		&agui.ActivitySnapshot{MessageID: "act-2", ActivityType: "EMPTY", Replace: new(true)},
		&agui.ActivitySnapshot{MessageID: "act-3", ActivityType: "DEFAULT", Content: map[string]any{}},
		&agui.ActivityDelta{MessageID: "act-1", ActivityType: "PLAN", Patch: []agui.PatchOp{
			{Op: "replace", Path: "/steps/0/done", Value: false},
			{Op: "add", Path: "/steps/-", Value: nil},
		}},

		&agui.Raw{Event: map[string]any{"type": "delta", "n": 1.0}, Source: "langgraph"},
		&agui.Raw{Attribution: sub},
		&agui.Custom{Name: "ping", Value: []any{"x", 1.0}},
		&agui.Custom{Attribution: sub, Name: "null-value"},

		&agui.StepStarted{StepName: "plan"},
		&agui.StepFinished{StepName: "plan"},
		&agui.StepStarted{Attribution: sub, StepName: "plan"},
		&agui.StepFinished{Attribution: sub, StepName: "plan"},

		&agui.ReasoningStart{MessageID: "r-1"},
		&agui.ReasoningMessageStart{MessageID: "r-1"},
		&agui.ReasoningMessageContent{MessageID: "r-1", Delta: "thinking…"},
		&agui.ReasoningMessageContent{Attribution: sub, MessageID: "r-2", Delta: ""},
		&agui.ReasoningMessageEnd{MessageID: "r-1"},
		&agui.ReasoningMessageChunk{Attribution: sub, MessageID: "r-3", Delta: "chunked"},
		&agui.ReasoningMessageChunk{},
		&agui.ReasoningEnd{Attribution: sub, MessageID: "r-1"},
		&agui.ReasoningEncryptedValue{Subtype: agui.EncryptedMessage, EntityID: "r-1", EncryptedValue: "b64=="},
		&agui.ReasoningEncryptedValue{Attribution: sub, Subtype: agui.EncryptedToolCall, EntityID: "tc-1", EncryptedValue: "opaque"},

		&agui.SubagentStarted{Base: base, SubagentRunID: "sub-1", Name: "researcher", Description: "finds things",
			ParentSubagentRunID: "sub-0", ParentToolCallID: "tc-9", ParentMessageID: "msg-9"},
		&agui.SubagentStarted{SubagentRunID: "sub-2", Name: "writer"},
		&agui.SubagentStarted{SubagentRunID: "", Name: ""},
		&agui.SubagentFinished{SubagentRunID: "sub-1", Result: map[string]any{"found": 3.0},
			Outcome: &agui.SubagentOutcome{Type: "success"}},
		&agui.SubagentFinished{SubagentRunID: "sub-2", Outcome: &agui.SubagentOutcome{Type: "suspended", InterruptIDs: []string{"int-1"}}},
		&agui.SubagentFinished{SubagentRunID: "sub-3", Outcome: &agui.SubagentOutcome{Type: "suspended"}},
		&agui.SubagentFinished{SubagentRunID: "sub-4", Result: "plain"},
		&agui.SubagentError{SubagentRunID: "sub-5", Message: "boom", Code: "TOOL_FAILED"},
		&agui.SubagentError{SubagentRunID: "sub-6", Message: ""},

		&agui.RunFinished{ThreadID: "thread-1", RunID: "run-1"},
		&agui.RunFinished{Base: base, ThreadID: "thread-1", RunID: "run-1", Result: map[string]any{"answer": 42.0},
			Outcome: &pending, Usage: usage()},
		&agui.RunFinished{ThreadID: "thread-1", RunID: "run-1", Outcome: &success, Result: "done"},
		&agui.RunFinished{ThreadID: "thread-1", RunID: "run-1", Outcome: &interrupted},
		&agui.RunFinished{ThreadID: "thread-1", RunID: "run-1", Outcome: &cancelled, Usage: usage()[:1]},
		&agui.RunError{Message: "model overloaded", Code: "AGENT_ERROR", Usage: usage()},
		&agui.RunError{Base: base, Message: "stopped"},
	}
}

func usage() []agui.TokenUsage {
	return []agui.TokenUsage{
		{Provider: "openai", Model: "gpt-x", InputTokens: new(int64(1200)), OutputTokens: new(int64(300)),
			TotalTokens: new(int64(1500)), ReasoningTokens: new(int64(100)), CachedInputTokens: new(int64(1000)),
			CacheWriteInputTokens: new(int64(0))},
		{Model: "small", InputTokens: new(int64(9007199254740991))},
		{},
	}
}

func parts() agui.Content {
	return agui.PartsContent(
		agui.ContentPart{Type: agui.PartText, ID: "p-1", Text: "see attached", Metadata: map[string]any{"source": "search", "rank": 1.0}},
		agui.TextPart(""),
		agui.ContentPart{Type: agui.PartImage, ID: "p-2", Source: &agui.PartSource{Type: agui.SourceData, Value: "iVBORw0KGgo=", MimeType: "image/png"}},
		agui.ContentPart{Type: agui.PartAudio, ID: "p-3", Source: &agui.PartSource{Type: agui.SourceURL, Value: "https://example.com/a.mp3"}, Metadata: "narration"},
		agui.ContentPart{Type: agui.PartVideo, Source: &agui.PartSource{Type: agui.SourceURL, Value: "https://example.com/v.mp4", MimeType: "video/mp4"},
			Metadata: map[string]any{"seconds": 12.5}},
		agui.ContentPart{Type: agui.PartDocument, ID: "p-5", Source: &agui.PartSource{Type: agui.SourceFile, Value: "file-abc", Provider: "openai", MimeType: "application/pdf"}},
		agui.ContentPart{Type: agui.PartDocument, Source: &agui.PartSource{Type: agui.SourceFile, Value: "file-def"}, Metadata: []any{"x"}},
		agui.ContentPart{Type: agui.PartImage, Source: &agui.PartSource{Type: agui.SourceURL, Value: "https://example.com/i.png"}},
	)
}

func messages() []agui.Message {
	return []agui.Message{
		&agui.DeveloperMessage{ID: "m-dev", Content: "be terse", Name: "ops", EncryptedValue: "enc-dev",
			Metadata: map[string]any{"v": 1.0}},
		&agui.SystemMessage{ID: "m-sys", Content: ""},
		&agui.UserMessage{ID: "m-user-1", Content: agui.TextContent("hi"), Name: "ann"},
		&agui.UserMessage{ID: "m-user-2", Content: parts(), SubagentRunID: "sub-1", Metadata: map[string]any{}},
		&agui.UserMessage{ID: "m-user-3", Content: agui.PartsContent()},
		&agui.AssistantMessage{ID: "m-asst-1", Content: "calling tools", Name: "helper", ToolCalls: []agui.ToolCall{
			{ID: "tc-1", Function: agui.FunctionCall{Name: "search", Arguments: `{"q":"golang"}`},
				EncryptedValue: "enc-tc", Metadata: map[string]any{"cost": 0.5}},
			{ID: "tc-2", Function: agui.FunctionCall{Name: "noop", Arguments: ""}},
		}, SubagentRunID: "sub-1", EncryptedValue: "enc-asst"},
		&agui.AssistantMessage{ID: "m-asst-2"},
		&agui.ToolMessage{ID: "m-tool-1", ToolCallID: "tc-1", Content: agui.TextContent("3 results"), Error: "partial"},
		&agui.ToolMessage{ID: "m-tool-2", ToolCallID: "tc-2", Content: parts(), SubagentRunID: "sub-1"},
		&agui.ActivityMessage{ID: "m-act-1", ActivityType: "PLAN", Content: map[string]any{"steps": []any{"a"}},
			Metadata: map[string]any{"pinned": true}, SubagentRunID: "sub-1"},
		&agui.ActivityMessage{ID: "m-act-2", ActivityType: "EMPTY"},
		&agui.ReasoningMessage{ID: "m-reason", Content: "because", EncryptedValue: "enc-r"},
		&agui.ReasoningMessage{ID: "m-reason-2", Content: ""},
	}
}

func input() *agui.RunAgentInput {
	return &agui.RunAgentInput{
		ThreadID: "thread-1", RunID: "run-1", ProtocolVersion: agui.ProtocolVersion, ParentRunID: "run-0",
		State:    map[string]any{"count": 3.0, "list": []any{}},
		Messages: messages(),
		Tools: []agui.Tool{
			{Name: "search", Description: "web search",
				Parameters: map[string]any{"type": "object", "properties": map[string]any{"q": map[string]any{"type": "string"}}},
				Metadata:   map[string]any{"ui": "inline"}},
			{Name: "noop"},
		},
		Context:        []agui.ContextItem{{Description: "user locale", Value: "fr-FR"}, {}},
		ForwardedProps: map[string]any{},
		Resume: []agui.ResumeEntry{
			{InterruptID: "int-0", Status: agui.ResumeResolved, Payload: map[string]any{"ok": true}, Metadata: map[string]any{"sig": "x"}},
			{InterruptID: "int-00", Status: agui.ResumeCancelled},
		},
	}
}
