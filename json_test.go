package agui

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
)

// eventCase is one event and the exact bytes AppendJSON must produce.
type eventCase struct {
	name string
	ev   Event
	want string
}

// minimalEvents holds every event type with only its required fields set:
// nothing optional may appear, and required nullable values are null.
func minimalEvents() []eventCase {
	return []eventCase{
		{"TextMessageStart", &TextMessageStart{MessageID: "m"}, `{"type":"TEXT_MESSAGE_START","messageId":"m"}`},
		{"TextMessageContent", &TextMessageContent{MessageID: "m"}, `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":""}`},
		{"TextMessageEnd", &TextMessageEnd{MessageID: "m"}, `{"type":"TEXT_MESSAGE_END","messageId":"m"}`},
		{"TextMessageChunk", &TextMessageChunk{}, `{"type":"TEXT_MESSAGE_CHUNK"}`},
		{"ToolCallStart", &ToolCallStart{ToolCallID: "t", ToolCallName: "f"}, `{"type":"TOOL_CALL_START","toolCallId":"t","toolCallName":"f"}`},
		{"ToolCallArgs", &ToolCallArgs{ToolCallID: "t"}, `{"type":"TOOL_CALL_ARGS","toolCallId":"t","delta":""}`},
		{"ToolCallEnd", &ToolCallEnd{ToolCallID: "t"}, `{"type":"TOOL_CALL_END","toolCallId":"t"}`},
		{"ToolCallChunk", &ToolCallChunk{}, `{"type":"TOOL_CALL_CHUNK"}`},
		{"ToolCallResult", &ToolCallResult{MessageID: "m", ToolCallID: "t"}, `{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"t","content":""}`},
		{"StateSnapshot", &StateSnapshot{}, `{"type":"STATE_SNAPSHOT","snapshot":null}`},
		{"StateDelta", &StateDelta{}, `{"type":"STATE_DELTA","delta":[]}`},
		{"MessagesSnapshot", &MessagesSnapshot{}, `{"type":"MESSAGES_SNAPSHOT","messages":[]}`},
		{"ActivitySnapshot", &ActivitySnapshot{MessageID: "m", ActivityType: "A"}, `{"type":"ACTIVITY_SNAPSHOT","messageId":"m","activityType":"A","content":{}}`},
		{"ActivityDelta", &ActivityDelta{MessageID: "m", ActivityType: "A"}, `{"type":"ACTIVITY_DELTA","messageId":"m","activityType":"A","patch":[]}`},
		{"Raw", &Raw{}, `{"type":"RAW","event":null}`},
		{"Custom", &Custom{Name: "c"}, `{"type":"CUSTOM","name":"c","value":null}`},
		{"RunStarted", &RunStarted{ThreadID: "th", RunID: "r"}, `{"type":"RUN_STARTED","threadId":"th","runId":"r"}`},
		{"RunFinished", &RunFinished{ThreadID: "th", RunID: "r"}, `{"type":"RUN_FINISHED","threadId":"th","runId":"r"}`},
		{"RunError", &RunError{Message: "boom"}, `{"type":"RUN_ERROR","message":"boom"}`},
		{"StepStarted", &StepStarted{StepName: "s"}, `{"type":"STEP_STARTED","stepName":"s"}`},
		{"StepFinished", &StepFinished{StepName: "s"}, `{"type":"STEP_FINISHED","stepName":"s"}`},
		{"ReasoningStart", &ReasoningStart{MessageID: "r"}, `{"type":"REASONING_START","messageId":"r"}`},
		{"ReasoningMessageStart", &ReasoningMessageStart{MessageID: "r"}, `{"type":"REASONING_MESSAGE_START","messageId":"r","role":"reasoning"}`},
		{"ReasoningMessageContent", &ReasoningMessageContent{MessageID: "r"}, `{"type":"REASONING_MESSAGE_CONTENT","messageId":"r","delta":""}`},
		{"ReasoningMessageEnd", &ReasoningMessageEnd{MessageID: "r"}, `{"type":"REASONING_MESSAGE_END","messageId":"r"}`},
		{"ReasoningMessageChunk", &ReasoningMessageChunk{}, `{"type":"REASONING_MESSAGE_CHUNK"}`},
		{"ReasoningEnd", &ReasoningEnd{MessageID: "r"}, `{"type":"REASONING_END","messageId":"r"}`},
		{"ReasoningEncryptedValue", &ReasoningEncryptedValue{Subtype: EncryptedMessage, EntityID: "m", EncryptedValue: "x"}, `{"type":"REASONING_ENCRYPTED_VALUE","subtype":"message","entityId":"m","encryptedValue":"x"}`},
		{"SubagentStarted", &SubagentStarted{Name: "n"}, `{"type":"SUBAGENT_STARTED","subagentRunId":"","name":"n"}`},
		{"SubagentFinished", &SubagentFinished{SubagentRunID: "s"}, `{"type":"SUBAGENT_FINISHED","subagentRunId":"s"}`},
		{"SubagentError", &SubagentError{SubagentRunID: "s", Message: "x"}, `{"type":"SUBAGENT_ERROR","subagentRunId":"s","message":"x"}`},
	}
}

// fullEvents holds every event type with every field set.
func fullEvents() []eventCase {
	base := Base{Timestamp: 1767225600000, RawEvent: map[string]any{"k": "v"}, Metadata: map[string]any{"m": 1.0}}
	const b = `"timestamp":1767225600000,"rawEvent":{"k":"v"},"metadata":{"m":1}`
	at := Attribution{SubagentRunID: "s1"}
	yes := true
	return []eventCase{
		{"TextMessageStart", &TextMessageStart{Base: base, Attribution: at, MessageID: "m", Role: RoleAssistant, Name: "bot"},
			`{"type":"TEXT_MESSAGE_START",` + b + `,"messageId":"m","role":"assistant","name":"bot","subagentRunId":"s1"}`},
		{"TextMessageContent", &TextMessageContent{Base: base, Attribution: at, MessageID: "m", Delta: "hi"},
			`{"type":"TEXT_MESSAGE_CONTENT",` + b + `,"messageId":"m","delta":"hi","subagentRunId":"s1"}`},
		{"TextMessageEnd", &TextMessageEnd{Base: base, Attribution: at, MessageID: "m"},
			`{"type":"TEXT_MESSAGE_END",` + b + `,"messageId":"m","subagentRunId":"s1"}`},
		{"TextMessageChunk", &TextMessageChunk{Base: base, Attribution: at, MessageID: "m", Role: RoleUser, Delta: "d", Name: "n"},
			`{"type":"TEXT_MESSAGE_CHUNK",` + b + `,"messageId":"m","role":"user","delta":"d","name":"n","subagentRunId":"s1"}`},
		{"ToolCallStart", &ToolCallStart{Base: base, Attribution: at, ToolCallID: "t", ToolCallName: "f", ParentMessageID: "m"},
			`{"type":"TOOL_CALL_START",` + b + `,"toolCallId":"t","toolCallName":"f","parentMessageId":"m","subagentRunId":"s1"}`},
		{"ToolCallArgs", &ToolCallArgs{Base: base, Attribution: at, ToolCallID: "t", Delta: `{"a":`},
			`{"type":"TOOL_CALL_ARGS",` + b + `,"toolCallId":"t","delta":"{\"a\":","subagentRunId":"s1"}`},
		{"ToolCallEnd", &ToolCallEnd{Base: base, Attribution: at, ToolCallID: "t"},
			`{"type":"TOOL_CALL_END",` + b + `,"toolCallId":"t","subagentRunId":"s1"}`},
		{"ToolCallChunk", &ToolCallChunk{Base: base, Attribution: at, ToolCallID: "t", ToolCallName: "f", ParentMessageID: "m", Delta: "{}"},
			`{"type":"TOOL_CALL_CHUNK",` + b + `,"toolCallId":"t","toolCallName":"f","parentMessageId":"m","delta":"{}","subagentRunId":"s1"}`},
		{"ToolCallResult", &ToolCallResult{Base: base, Attribution: at, MessageID: "m", ToolCallID: "t", Content: TextContent("ok"), Role: RoleTool},
			`{"type":"TOOL_CALL_RESULT",` + b + `,"messageId":"m","toolCallId":"t","content":"ok","role":"tool","subagentRunId":"s1"}`},
		{"StateSnapshot", &StateSnapshot{Base: base, Attribution: at, Snapshot: map[string]any{"b": []any{1.0, nil}, "a": true}},
			`{"type":"STATE_SNAPSHOT",` + b + `,"snapshot":{"a":true,"b":[1,null]},"subagentRunId":"s1"}`},
		{"StateDelta", &StateDelta{Base: base, Attribution: at, Delta: []PatchOp{{Op: "remove", Path: "/a"}, {Op: "move", From: "/b", Path: "/c"}}},
			`{"type":"STATE_DELTA",` + b + `,"delta":[{"op":"remove","path":"/a"},{"op":"move","from":"/b","path":"/c"}],"subagentRunId":"s1"}`},
		{"MessagesSnapshot", &MessagesSnapshot{Base: base, Messages: []Message{&UserMessage{ID: "u", Content: TextContent("q")}}},
			`{"type":"MESSAGES_SNAPSHOT",` + b + `,"messages":[{"id":"u","role":"user","content":"q"}]}`},
		{"ActivitySnapshot", &ActivitySnapshot{Base: base, Attribution: at, MessageID: "m", ActivityType: "A", Content: map[string]any{"x": "y"}, Replace: &yes},
			`{"type":"ACTIVITY_SNAPSHOT",` + b + `,"messageId":"m","activityType":"A","content":{"x":"y"},"replace":true,"subagentRunId":"s1"}`},
		{"ActivityDelta", &ActivityDelta{Base: base, Attribution: at, MessageID: "m", ActivityType: "A", Patch: []PatchOp{{Op: "add", Path: "/x", Value: "z"}}},
			`{"type":"ACTIVITY_DELTA",` + b + `,"messageId":"m","activityType":"A","patch":[{"op":"add","path":"/x","value":"z"}],"subagentRunId":"s1"}`},
		{"Raw", &Raw{Base: base, Attribution: at, Event: json.RawMessage(` { "e" : [ 1 , 2 ] } `), Source: "lc"},
			`{"type":"RAW",` + b + `,"event":{"e":[1,2]},"source":"lc","subagentRunId":"s1"}`},
		{"Custom", &Custom{Base: base, Attribution: at, Name: "c", Value: 3},
			`{"type":"CUSTOM",` + b + `,"name":"c","value":3,"subagentRunId":"s1"}`},
		{"RunStarted", &RunStarted{Base: base, ThreadID: "th", RunID: "r", ParentRunID: "p", ProtocolVersion: "1.0", Input: &RunAgentInput{ThreadID: "th", RunID: "r"}},
			`{"type":"RUN_STARTED",` + b + `,"threadId":"th","runId":"r","protocolVersion":"1.0","parentRunId":"p","input":{"threadId":"th","runId":"r","messages":[],"tools":[],"context":[]}}`},
		{"RunFinished", &RunFinished{Base: base, ThreadID: "th", RunID: "r", Result: "done", Outcome: &Outcome{Type: OutcomeSuccess}, Usage: []TokenUsage{{Model: "m", InputTokens: new(int64(3))}}},
			`{"type":"RUN_FINISHED",` + b + `,"threadId":"th","runId":"r","result":"done","outcome":{"type":"success"},"usage":[{"model":"m","inputTokens":3}]}`},
		{"RunError", &RunError{Base: base, Message: "boom", Code: "X", Usage: []TokenUsage{{OutputTokens: new(int64(0))}}},
			`{"type":"RUN_ERROR",` + b + `,"message":"boom","code":"X","usage":[{"outputTokens":0}]}`},
		{"StepStarted", &StepStarted{Base: base, Attribution: at, StepName: "s"},
			`{"type":"STEP_STARTED",` + b + `,"stepName":"s","subagentRunId":"s1"}`},
		{"StepFinished", &StepFinished{Base: base, Attribution: at, StepName: "s"},
			`{"type":"STEP_FINISHED",` + b + `,"stepName":"s","subagentRunId":"s1"}`},
		{"ReasoningStart", &ReasoningStart{Base: base, Attribution: at, MessageID: "r"},
			`{"type":"REASONING_START",` + b + `,"messageId":"r","subagentRunId":"s1"}`},
		{"ReasoningMessageStart", &ReasoningMessageStart{Base: base, Attribution: at, MessageID: "r"},
			`{"type":"REASONING_MESSAGE_START",` + b + `,"messageId":"r","role":"reasoning","subagentRunId":"s1"}`},
		{"ReasoningMessageContent", &ReasoningMessageContent{Base: base, Attribution: at, MessageID: "r", Delta: "d"},
			`{"type":"REASONING_MESSAGE_CONTENT",` + b + `,"messageId":"r","delta":"d","subagentRunId":"s1"}`},
		{"ReasoningMessageEnd", &ReasoningMessageEnd{Base: base, Attribution: at, MessageID: "r"},
			`{"type":"REASONING_MESSAGE_END",` + b + `,"messageId":"r","subagentRunId":"s1"}`},
		{"ReasoningMessageChunk", &ReasoningMessageChunk{Base: base, Attribution: at, MessageID: "r", Delta: "d"},
			`{"type":"REASONING_MESSAGE_CHUNK",` + b + `,"messageId":"r","delta":"d","subagentRunId":"s1"}`},
		{"ReasoningEnd", &ReasoningEnd{Base: base, Attribution: at, MessageID: "r"},
			`{"type":"REASONING_END",` + b + `,"messageId":"r","subagentRunId":"s1"}`},
		{"ReasoningEncryptedValue", &ReasoningEncryptedValue{Base: base, Attribution: at, Subtype: EncryptedToolCall, EntityID: "t", EncryptedValue: "x"},
			`{"type":"REASONING_ENCRYPTED_VALUE",` + b + `,"subtype":"tool-call","entityId":"t","encryptedValue":"x","subagentRunId":"s1"}`},
		{"SubagentStarted", &SubagentStarted{Base: base, SubagentRunID: "s2", Name: "n", Description: "d", ParentSubagentRunID: "s1", ParentToolCallID: "t", ParentMessageID: "m"},
			`{"type":"SUBAGENT_STARTED",` + b + `,"subagentRunId":"s2","name":"n","description":"d","parentSubagentRunId":"s1","parentToolCallId":"t","parentMessageId":"m"}`},
		{"SubagentFinished", &SubagentFinished{Base: base, SubagentRunID: "s2", Result: []any{"r"}, Outcome: &SubagentOutcome{Type: "suspended", InterruptIDs: []string{"i1"}}},
			`{"type":"SUBAGENT_FINISHED",` + b + `,"subagentRunId":"s2","result":["r"],"outcome":{"type":"suspended","interruptIds":["i1"]}}`},
		{"SubagentError", &SubagentError{Base: base, SubagentRunID: "s2", Message: "x", Code: "E"},
			`{"type":"SUBAGENT_ERROR",` + b + `,"subagentRunId":"s2","message":"x","code":"E"}`},
	}
}

func TestAppendJSONEveryEventType(t *testing.T) {
	for _, set := range []struct {
		name  string
		cases []eventCase
	}{{"minimal", minimalEvents()}, {"full", fullEvents()}} {
		seen := map[EventType]bool{}
		for _, c := range set.cases {
			t.Run(set.name+"/"+c.name, func(t *testing.T) {
				prefix := []byte("prefix")
				got, err := c.ev.AppendJSON(prefix)
				if err != nil {
					t.Fatalf("AppendJSON: %v", err)
				}
				if string(got) != "prefix"+c.want {
					t.Errorf("AppendJSON\n got %s\nwant prefix%s", got, c.want)
				}
				if !json.Valid(got[len(prefix):]) {
					t.Errorf("output is not valid JSON")
				}
				var typ struct{ Type EventType }
				if err := json.Unmarshal(got[len(prefix):], &typ); err != nil || typ.Type != c.ev.Type() {
					t.Errorf("type member %q, want %q (err %v)", typ.Type, c.ev.Type(), err)
				}
				viaMarshal, err := json.Marshal(c.ev)
				if err != nil {
					t.Fatalf("json.Marshal: %v", err)
				}
				if string(viaMarshal) != c.want {
					t.Errorf("json.Marshal\n got %s\nwant %s", viaMarshal, c.want)
				}
			})
			seen[c.ev.Type()] = true
		}
		for _, typ := range EventTypes() {
			if !seen[typ] {
				t.Errorf("%s: no case for %s", set.name, typ)
			}
		}
	}
}

// TestAppendJSONProtocol10Additions covers what AG-UI 1.0 added to the
// wire, each compared as JSON with the shape AG-UI 1.0 gives.
func TestAppendJSONProtocol10Additions(t *testing.T) {
	for _, c := range protocol10Cases() {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.ev.AppendJSON(nil)
			if err != nil {
				t.Fatalf("AppendJSON: %v", err)
			}
			if string(got) != c.want {
				t.Errorf("\n got %s\nwant %s", got, c.want)
			}
			assertNoNullMember(t, got)
		})
	}
}

// protocol10Cases are events using what AG-UI 1.0 added, with their exact
// encoding.
func protocol10Cases() []eventCase {
	return []eventCase{
		{"subagent started with parents",
			&SubagentStarted{SubagentRunID: "s2", Name: "researcher", ParentSubagentRunID: "s1", ParentToolCallID: "tc", ParentMessageID: "m"},
			`{"type":"SUBAGENT_STARTED","subagentRunId":"s2","name":"researcher","parentSubagentRunId":"s1","parentToolCallId":"tc","parentMessageId":"m"}`},
		{"subagent finished success without result",
			&SubagentFinished{SubagentRunID: "s2", Outcome: &SubagentOutcome{Type: "success"}},
			`{"type":"SUBAGENT_FINISHED","subagentRunId":"s2","outcome":{"type":"success"}}`},
		{"subagent finished with null result omits it",
			&SubagentFinished{SubagentRunID: "s2", Result: json.RawMessage("null")},
			`{"type":"SUBAGENT_FINISHED","subagentRunId":"s2"}`},
		{"subagent error",
			&SubagentError{SubagentRunID: "s2", Message: "failed", Code: "TIMEOUT"},
			`{"type":"SUBAGENT_ERROR","subagentRunId":"s2","message":"failed","code":"TIMEOUT"}`},
		{"attributed text content",
			&TextMessageContent{Attribution: Attribution{SubagentRunID: "s1"}, MessageID: "m", Delta: "x"},
			`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","subagentRunId":"s1"}`},
		{"cancelled outcome",
			&RunFinished{ThreadID: "t", RunID: "r", Outcome: &Outcome{Type: OutcomeCancelled}},
			`{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"cancelled"}}`},
		{"cancelled outcome drops stray fields",
			&RunFinished{ThreadID: "t", RunID: "r", Outcome: &Outcome{Type: OutcomeCancelled, PendingToolCallIDs: []string{"x"}, Interrupts: []Interrupt{{ID: "i"}}}},
			`{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"cancelled"}}`},
		{"success with pendingToolCallIds",
			&RunFinished{ThreadID: "t", RunID: "r", Outcome: &Outcome{Type: OutcomeSuccess, PendingToolCallIDs: []string{"tcA", "tcB"}}},
			`{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"success","pendingToolCallIds":["tcA","tcB"]}}`},
		{"success with empty pendingToolCallIds omits them",
			&RunFinished{ThreadID: "t", RunID: "r", Outcome: &Outcome{Type: OutcomeSuccess, PendingToolCallIDs: []string{}}},
			`{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"success"}}`},
		{"interrupt with subagent attribution",
			&RunFinished{ThreadID: "t", RunID: "r", Outcome: &Outcome{Type: OutcomeInterrupt, Interrupts: []Interrupt{{ID: "i1", Reason: "approval", Message: "ok?", ToolCallID: "tc", ResponseSchema: map[string]any{"type": "object"}, ExpiresAt: "2030-01-01T00:00:00Z", SubagentRunID: "s1"}}}},
			`{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"interrupt","interrupts":[{"id":"i1","reason":"approval","message":"ok?","toolCallId":"tc","responseSchema":{"type":"object"},"expiresAt":"2030-01-01T00:00:00Z","subagentRunId":"s1"}]}}`},
		{"usage with cacheWriteInputTokens",
			&RunFinished{ThreadID: "t", RunID: "r", Usage: []TokenUsage{{Provider: "p", InputTokens: new(int64(10)), OutputTokens: new(int64(5)), TotalTokens: new(int64(15)), ReasoningTokens: new(int64(2)), CachedInputTokens: new(int64(4)), CacheWriteInputTokens: new(int64(3))}}},
			`{"type":"RUN_FINISHED","threadId":"t","runId":"r","usage":[{"provider":"p","inputTokens":10,"outputTokens":5,"totalTokens":15,"reasoningTokens":2,"cachedInputTokens":4,"cacheWriteInputTokens":3}]}`},
		{"tool result with parts",
			&ToolCallResult{MessageID: "m", ToolCallID: "tc", Content: PartsContent(
				ContentPart{Type: PartText, ID: "p1", Text: "see image", Metadata: map[string]any{"lang": "en"}},
				ContentPart{Type: PartImage, Source: &PartSource{Type: SourceData, Value: "aGk=", MimeType: "image/png"}})},
			`{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"tc","content":[{"type":"text","text":"see image","id":"p1","metadata":{"lang":"en"}},{"type":"image","source":{"type":"data","value":"aGk=","mimeType":"image/png"}}]}`},
		{"tool result with empty parts",
			&ToolCallResult{MessageID: "m", ToolCallID: "tc", Content: PartsContent()},
			`{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"tc","content":[]}`},
		{"file source",
			&MessagesSnapshot{Messages: []Message{&UserMessage{ID: "u", Content: PartsContent(
				ContentPart{Type: PartDocument, ID: "d", Source: &PartSource{Type: SourceFile, Value: "file-abc", Provider: "openai", MimeType: "application/pdf"}},
				ContentPart{Type: PartImage, Source: &PartSource{Type: SourceURL, Value: "https://x/y.png"}})}}},
			`{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"u","role":"user","content":[{"type":"document","source":{"type":"file","value":"file-abc","mimeType":"application/pdf","provider":"openai"},"id":"d"},{"type":"image","source":{"type":"url","value":"https://x/y.png"}}]}]}`},
		{"every message role with subagent attribution",
			&MessagesSnapshot{Messages: []Message{
				&DeveloperMessage{ID: "1", Content: "dev", Name: "n", SubagentRunID: "s"},
				&SystemMessage{ID: "2", Content: "sys", EncryptedValue: "e"},
				&AssistantMessage{ID: "3", ToolCalls: []ToolCall{{ID: "tc", Function: FunctionCall{Name: "f", Arguments: "{}"}, EncryptedValue: "e", Metadata: map[string]any{}}}, SubagentRunID: "s"},
				&UserMessage{ID: "4", Content: TextContent("q"), Metadata: map[string]any{"k": nil}},
				&ToolMessage{ID: "5", Content: PartsContent(TextPart("r")), ToolCallID: "tc", Error: "bad", SubagentRunID: "s"},
				&ActivityMessage{ID: "6", ActivityType: "PLAN", SubagentRunID: "s"},
				&ReasoningMessage{ID: "7", Content: "think", EncryptedValue: "e", SubagentRunID: "s"},
			}},
			`{"type":"MESSAGES_SNAPSHOT","messages":[` +
				`{"id":"1","role":"developer","content":"dev","name":"n","subagentRunId":"s"},` +
				`{"id":"2","role":"system","content":"sys","encryptedValue":"e"},` +
				`{"id":"3","role":"assistant","toolCalls":[{"id":"tc","type":"function","function":{"name":"f","arguments":"{}"},"encryptedValue":"e","metadata":{}}],"subagentRunId":"s"},` +
				`{"id":"4","role":"user","content":"q","metadata":{"k":null}},` +
				`{"id":"5","role":"tool","content":[{"type":"text","text":"r"}],"toolCallId":"tc","error":"bad","subagentRunId":"s"},` +
				`{"id":"6","role":"activity","activityType":"PLAN","content":{},"subagentRunId":"s"},` +
				`{"id":"7","role":"reasoning","content":"think","encryptedValue":"e","subagentRunId":"s"}]}`},
		{"reasoning message start always has its role",
			&ReasoningMessageStart{MessageID: "r"},
			`{"type":"REASONING_MESSAGE_START","messageId":"r","role":"reasoning"}`},
		{"custom with nil value writes null",
			&Custom{Name: "ping"},
			`{"type":"CUSTOM","name":"ping","value":null}`},
		{"custom with raw null value writes null",
			&Custom{Name: "ping", Value: json.RawMessage("null")},
			`{"type":"CUSTOM","name":"ping","value":null}`},
		{"run started echoes a 1.0 input",
			&RunStarted{ThreadID: "t", RunID: "r", ProtocolVersion: ProtocolVersion, Input: &RunAgentInput{
				ThreadID: "t", RunID: "r", ProtocolVersion: "1.0", ParentRunID: "p0",
				State: json.RawMessage("null"), ForwardedProps: map[string]any{},
				Tools:  []Tool{{Name: "f", Description: "d", Parameters: map[string]any{"type": "object"}, Metadata: map[string]any{"x": 1}}},
				Resume: []ResumeEntry{{InterruptID: "i1", Status: ResumeResolved, Payload: map[string]any{"ok": true}}, {InterruptID: "i2", Status: ResumeCancelled}},
			}},
			`{"type":"RUN_STARTED","threadId":"t","runId":"r","protocolVersion":"1.0","input":{"threadId":"t","runId":"r","parentRunId":"p0","protocolVersion":"1.0","messages":[],"tools":[{"name":"f","description":"d","parameters":{"type":"object"},"metadata":{"x":1}}],"context":[],"forwardedProps":{},"resume":[{"interruptId":"i1","status":"resolved","payload":{"ok":true}},{"interruptId":"i2","status":"cancelled"}]}}`},
		{"patch ops keep null values where required",
			&StateDelta{Delta: []PatchOp{{Op: "add", Path: "/a"}, {Op: "test", Path: "", Value: json.RawMessage("null")}, {Op: "copy", From: "", Path: "/b", Value: 1}, {Op: "remove", From: "/x", Path: "/c", Value: 1}}},
			`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a","value":null},{"op":"test","path":"","value":null},{"op":"copy","from":"","path":"/b"},{"op":"remove","path":"/c"}]}`},
		{"optional opaque values that encode as null are omitted",
			&RunFinished{Base: Base{RawEvent: map[string]any(nil)}, ThreadID: "t", RunID: "r", Result: json.RawMessage(" null ")},
			`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`},
	}
}

// assertNoNullMember fails when a member is null other than the three
// required nullable ones; it does not look inside opaque JSON values, where
// null is data.
func assertNoNullMember(t *testing.T, data []byte) {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("invalid JSON: %v", err)
	}
	nullable := map[string]bool{"snapshot": true, "event": true, "value": true}
	opaque := map[string]bool{"snapshot": true, "event": true, "value": true, "rawEvent": true, "metadata": true,
		"payload": true, "result": true, "parameters": true, "responseSchema": true, "state": true, "forwardedProps": true}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if x == nil && !nullable[k] {
					t.Errorf("%s.%s is null", path, k)
				}
				if _, isObject := x.(map[string]any); opaque[k] || k == "content" && isObject {
					continue
				}
				walk(path+"."+k, x)
			}
		case []any:
			for _, x := range v {
				walk(path+"[]", x)
			}
		}
	}
	walk("$", v)
}

func TestAppendJSONErrors(t *testing.T) {
	bad := map[string]any{"n": math.NaN()}
	cases := []struct {
		name string
		ev   Event
		want string
	}{
		{"NaN in snapshot", &StateSnapshot{Snapshot: bad}, "cannot encode STATE_SNAPSHOT as JSON: snapshot.n: unsupported number NaN"},
		{"invalid raw JSON", &Raw{Event: json.RawMessage(`{"a":`)}, "RAW as JSON: event: "},
		{"unsupported type in custom value", &Custom{Name: "c", Value: make(chan int)}, "CUSTOM as JSON: value: json: unsupported type: chan int"},
		{"NaN in metadata", &TextMessageContent{Base: Base{Metadata: bad}, MessageID: "m"}, "TEXT_MESSAGE_CONTENT as JSON: metadata.n: "},
		{"nil message", &MessagesSnapshot{Messages: []Message{&UserMessage{ID: "u"}, nil}}, ": messages[1]: nil message"},
		{"typed nil message", &MessagesSnapshot{Messages: []Message{(*AssistantMessage)(nil)}}, ": messages[0]: nil message"},
		{"media part without source", &ToolCallResult{Content: PartsContent(TextPart("a"), ContentPart{Type: PartAudio})}, ": content[1]: audio part has no source"},
		{"bad interrupt metadata", &RunFinished{Outcome: &Outcome{Type: OutcomeInterrupt, Interrupts: []Interrupt{{Metadata: bad}}}}, ": outcome.interrupts[0].metadata.n: "},
		{"bad tool parameters", &RunStarted{Input: &RunAgentInput{Tools: []Tool{{Parameters: math.Inf(1)}}}}, ": input.tools[0].parameters: unsupported number +Inf"},
		{"bad resume payload", &RunStarted{Input: &RunAgentInput{Resume: []ResumeEntry{{Payload: float32(math.NaN())}}}}, ": input.resume[0].payload: "},
		{"bad input message", &RunStarted{Input: &RunAgentInput{Messages: []Message{&UserMessage{Content: PartsContent(ContentPart{Type: PartImage})}}}}, ": input.messages[0].content[0]: image part has no source"},
		{"bad patch value", &ActivityDelta{Patch: []PatchOp{{Op: "add", Value: json.Number("1x")}}}, ": patch[0].value: invalid number"},
		{"bad state delta value", &StateDelta{Delta: []PatchOp{{Op: "remove"}, {Op: "replace", Value: []any{"a", math.NaN()}}}}, ": delta[1].value[1]: "},
		{"bad subagent result", &SubagentFinished{Result: []any{math.NaN()}}, "SUBAGENT_FINISHED as JSON: result[0]: "},
		{"bad part metadata", &MessagesSnapshot{Messages: []Message{&UserMessage{Content: PartsContent(ContentPart{Type: PartText, Metadata: math.NaN()})}}}, ": messages[0].content[0].metadata: "},
		{"bad tool call metadata", &MessagesSnapshot{Messages: []Message{&AssistantMessage{ToolCalls: []ToolCall{{Metadata: bad}}}}}, ": messages[0].toolCalls[0].metadata.n: "},
		{"bad raw event", &StepStarted{Base: Base{RawEvent: map[string]any{"x": []any{map[string]any{"y": math.NaN()}}}}}, ": rawEvent.x[0].y: "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dst := []byte("keep")
			got, err := c.ev.AppendJSON(dst)
			if err == nil {
				t.Fatalf("AppendJSON succeeded: %s", got)
			}
			if string(got) != "keep" {
				t.Errorf("dst changed to %q on error", got)
			}
			if CodeOf(err) != CodeSerialization {
				t.Errorf("code %q, want %q", CodeOf(err), CodeSerialization)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not mention %q", err, c.want)
			}
			var e *Error
			if !errors.As(err, &e) || e.Err == nil {
				t.Errorf("error %#v has no cause", err)
			}
		})
	}
}

func TestAppendJSONErrorUnwrapsToCause(t *testing.T) {
	_, err := (&Custom{Name: "c", Value: map[string]any{"a": []any{make(chan int)}}}).AppendJSON(nil)
	var ute *json.UnsupportedTypeError
	if !errors.As(err, &ute) {
		t.Fatalf("error %v does not unwrap to the *json.UnsupportedTypeError", err)
	}
	if want := "cannot encode CUSTOM as JSON: value.a[0]: json: unsupported type: chan int"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
}

func TestMarshalJSONValueTypes(t *testing.T) {
	yes := map[string]any{"a": 1}
	cases := []struct {
		name string
		v    any
		want string
	}{
		{"content text", TextContent("<b>&</b>"), `"<b>&</b>"`},
		{"content parts", PartsContent(TextPart("x")), `[{"type":"text","text":"x"}]`},
		{"content part", ContentPart{Type: PartVideo, Source: &PartSource{Type: SourceURL, Value: "u", MimeType: "video/mp4"}}, `{"type":"video","source":{"type":"url","value":"u","mimeType":"video/mp4"}}`},
		{"unknown part type keeps text", ContentPart{Type: "hologram", Text: "h"}, `{"type":"hologram","text":"h"}`},
		{"data source writes mimeType", PartSource{Type: SourceData, Value: "v"}, `{"type":"data","value":"v","mimeType":""}`},
		{"outcome success", Success("a"), `{"type":"success","pendingToolCallIds":["a"]}`},
		{"outcome interrupt", Interrupted(NewInterrupt("i", "r")), `{"type":"interrupt","interrupts":[{"id":"i","reason":"r"}]}`},
		{"outcome interrupt without interrupts", Interrupted(), `{"type":"interrupt","interrupts":[]}`},
		{"outcome cancelled", Cancelled(), `{"type":"cancelled"}`},
		{"interrupt", Interrupt{ID: "i", Reason: "r", Metadata: yes}, `{"id":"i","reason":"r","metadata":{"a":1}}`},
		{"resume entry", ResumeEntry{InterruptID: "i", Status: ResumeResolved, Metadata: yes}, `{"interruptId":"i","status":"resolved","metadata":{"a":1}}`},
		{"empty usage", TokenUsage{}, `{}`},
		{"usage", TokenUsage{Model: "m", TotalTokens: new(int64(9))}, `{"model":"m","totalTokens":9}`},
		{"tool", Tool{Name: "n", Description: "d"}, `{"name":"n","description":"d"}`},
		{"context item", ContextItem{Description: "d", Value: "v"}, `{"description":"d","value":"v"}`},
		{"tool call", ToolCall{ID: "c", Function: FunctionCall{Name: "f", Arguments: `{"a":"<"}`}}, `{"id":"c","type":"function","function":{"name":"f","arguments":"{\"a\":\"<\"}"}}`},
		{"subagent outcome", SubagentOutcome{Type: "success", InterruptIDs: []string{}}, `{"type":"success"}`},
		{"input", RunAgentInput{ThreadID: "t", RunID: "r", Context: []ContextItem{{Description: "d", Value: "v"}}}, `{"threadId":"t","runId":"r","messages":[],"tools":[],"context":[{"description":"d","value":"v"}]}`},
		{"input pointer", NewInput("t", "r"), `{"threadId":"t","runId":"r","protocolVersion":"1.0","messages":[],"tools":[],"context":[]}`},
		{"patch op", PatchOp{Op: "replace", Path: "/x"}, `{"op":"replace","path":"/x","value":null}`},
		{"patch op of a later RFC keeps what is set", PatchOp{Op: "merge", From: "/a", Path: "/b", Value: 1}, `{"op":"merge","from":"/a","path":"/b","value":1}`},
		{"patch op of a later RFC without extras", PatchOp{Op: "merge", Path: "/b"}, `{"op":"merge","path":"/b"}`},
		{"assistant message", &AssistantMessage{ID: "a"}, `{"id":"a","role":"assistant"}`},
		{"developer message", &DeveloperMessage{ID: "d"}, `{"id":"d","role":"developer","content":""}`},
		{"system message", &SystemMessage{ID: "s", Content: "c"}, `{"id":"s","role":"system","content":"c"}`},
		{"user message", &UserMessage{ID: "u"}, `{"id":"u","role":"user","content":""}`},
		{"tool message", &ToolMessage{ID: "t"}, `{"id":"t","role":"tool","content":"","toolCallId":""}`},
		{"activity message", &ActivityMessage{ID: "a", ActivityType: "X", Content: yes}, `{"id":"a","role":"activity","activityType":"X","content":{"a":1}}`},
		{"reasoning message", &ReasoningMessage{ID: "r"}, `{"id":"r","role":"reasoning","content":""}`},
		{"event nested in an opaque value", map[string]any{"ev": &TextMessageEnd{MessageID: "m"}}, `{"ev":{"type":"TEXT_MESSAGE_END","messageId":"m"}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := json.Marshal(c.v)
			if err != nil {
				t.Fatalf("json.Marshal: %v", err)
			}
			// json.Marshal HTML-escapes Marshaler output; undo that to
			// compare what MarshalJSON itself wrote.
			s := strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&").Replace(string(got))
			if s != c.want {
				t.Errorf("\n got %s\nwant %s", s, c.want)
			}
		})
	}
}

func TestMarshalJSONErrorIsSerialization(t *testing.T) {
	_, err := ContentPart{Type: PartImage}.MarshalJSON()
	if CodeOf(err) != CodeSerialization {
		t.Fatalf("code %q, want %q (err %v)", CodeOf(err), CodeSerialization, err)
	}
}

func TestAppendJSONHotPathDoesNotAllocate(t *testing.T) {
	buf := make([]byte, 0, 4096)
	content := &TextMessageContent{Base: Base{Timestamp: 1767225600000}, MessageID: "msg-1", Delta: "hello, world"}
	args := &ToolCallArgs{Base: Base{Timestamp: 1767225600000}, ToolCallID: "call-1", Delta: `{"q":"x"}`}
	for _, ev := range []Event{content, args} {
		allocs := testing.AllocsPerRun(100, func() {
			var err error
			if buf, err = AppendSSE(buf[:0], ev); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %.1f allocations per frame, want 0", ev.Type(), allocs)
		}
	}
}

func TestAppendJSONRejectsCycles(t *testing.T) {
	m := map[string]any{"a": 1.0}
	m["self"] = m
	ev := &StateSnapshot{Snapshot: m}
	if _, err := AppendSSE(nil, ev); CodeOf(err) != CodeSerialization || !strings.HasPrefix(err.Error(), "cannot encode STATE_SNAPSHOT as JSON: snapshot.self.self.") {
		t.Errorf("AppendSSE error %v", err)
	}
}
