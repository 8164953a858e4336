package agui

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

func raw(s string) json.RawMessage { return json.RawMessage(s) }

func TestDecodeEventTypes(t *testing.T) {
	yes := true
	tests := []struct {
		in   string
		want Event
	}{
		{`{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"user","name":"n","timestamp":1700000000000,"subagentRunId":"s1"}`,
			&TextMessageStart{Base: Base{Timestamp: 1700000000000}, Attribution: Attribution{"s1"}, MessageID: "m1", Role: RoleUser, Name: "n"}},
		{`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":""}`,
			&TextMessageContent{MessageID: "m1"}},
		{`{"type":"TEXT_MESSAGE_END","messageId":"m1","rawEvent":{"a": [1, 2]}}`,
			&TextMessageEnd{Base: Base{RawEvent: raw(`{"a":[1,2]}`)}, MessageID: "m1"}},
		{`{"type":"TEXT_MESSAGE_CHUNK"}`, &TextMessageChunk{}},
		{`{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","role":"assistant","delta":"d","name":"x"}`,
			&TextMessageChunk{MessageID: "m", Role: RoleAssistant, Delta: "d", Name: "x"}},
		{`{"type":"TOOL_CALL_START","toolCallId":"t","toolCallName":"f","parentMessageId":null}`,
			&ToolCallStart{ToolCallID: "t", ToolCallName: "f"}},
		{`{"type":"TOOL_CALL_ARGS","toolCallId":"t","delta":"{\"q\":1}"}`,
			&ToolCallArgs{ToolCallID: "t", Delta: `{"q":1}`}},
		{`{"type":"TOOL_CALL_END","toolCallId":"t"}`, &ToolCallEnd{ToolCallID: "t"}},
		{`{"type":"TOOL_CALL_CHUNK","toolCallId":"t","toolCallName":"f","parentMessageId":"p","delta":"{"}`,
			&ToolCallChunk{ToolCallID: "t", ToolCallName: "f", ParentMessageID: "p", Delta: "{"}},
		{`{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"t","content":"ok","role":"tool"}`,
			&ToolCallResult{MessageID: "m", ToolCallID: "t", Content: TextContent("ok"), Role: RoleTool}},
		{`{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"t","content":[]}`,
			&ToolCallResult{MessageID: "m", ToolCallID: "t", Content: PartsContent()}},
		{`{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"t","content":[{"type":"text","text":"a","id":"p1","metadata":{"k":1}},{"type":"image","source":{"type":"url","value":"http://x/y.png"}},{"type":"document","source":{"type":"file","value":"file-1","provider":"openai","mimeType":"application/pdf"}}]}`,
			&ToolCallResult{MessageID: "m", ToolCallID: "t", Content: PartsContent(
				ContentPart{Type: PartText, Text: "a", ID: "p1", Metadata: raw(`{"k":1}`)},
				ContentPart{Type: PartImage, Source: &PartSource{Type: SourceURL, Value: "http://x/y.png"}},
				ContentPart{Type: PartDocument, Source: &PartSource{Type: SourceFile, Value: "file-1", Provider: "openai", MimeType: "application/pdf"}},
			)}},
		{`{"type":"STATE_SNAPSHOT","snapshot":null}`, &StateSnapshot{Snapshot: raw(`null`)}},
		{`{"type":"STATE_SNAPSHOT","snapshot":{"a" : {"b":null}}}`, &StateSnapshot{Snapshot: raw(`{"a":{"b":null}}`)}},
		{`{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/a","value":null},{"op":"remove","path":"/b","value":1},{"op":"move","from":"/c~1d","path":""}]}`,
			&StateDelta{Delta: []PatchOp{{Op: "replace", Path: "/a", Value: raw(`null`)}, {Op: "remove", Path: "/b"}, {Op: "move", From: "/c~1d", Path: ""}}}},
		{`{"type":"MESSAGES_SNAPSHOT","messages":[]}`, &MessagesSnapshot{Messages: []Message{}}},
		{`{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"1","role":"user","content":"hi","subagentRunId":"s"}]}`,
			&MessagesSnapshot{Messages: []Message{&UserMessage{ID: "1", Content: TextContent("hi"), SubagentRunID: "s"}}}},
		{`{"type":"ACTIVITY_SNAPSHOT","messageId":"m","activityType":"SEARCH","content":{"n":12345678901234567890,"x":null},"replace":false}`,
			&ActivitySnapshot{MessageID: "m", ActivityType: "SEARCH", Content: map[string]any{"n": json.Number("12345678901234567890"), "x": nil}, Replace: &[]bool{false}[0]}},
		{`{"type":"ACTIVITY_SNAPSHOT","messageId":"m","activityType":"A","content":{},"replace":true}`,
			&ActivitySnapshot{MessageID: "m", ActivityType: "A", Content: map[string]any{}, Replace: &yes}},
		{`{"type":"ACTIVITY_DELTA","messageId":"m","activityType":"A","patch":[{"op":"add","path":"/n","value":2}]}`,
			&ActivityDelta{MessageID: "m", ActivityType: "A", Patch: []PatchOp{{Op: "add", Path: "/n", Value: raw(`2`)}}}},
		{`{"type":"RAW","event":null,"source":"up"}`, &Raw{Event: raw(`null`), Source: "up"}},
		{`{"type":"CUSTOM","name":"c","value":[1,"x"]}`, &Custom{Name: "c", Value: raw(`[1,"x"]`)}},
		{`{"type":"RUN_STARTED","threadId":"th","runId":"r","parentRunId":"p","protocolVersion":"1.0","subagentRunId":"ignored"}`,
			&RunStarted{ThreadID: "th", RunID: "r", ParentRunID: "p", ProtocolVersion: "1.0"}},
		{`{"type":"RUN_STARTED","threadId":"th","runId":"r","input":{"threadId":"th","runId":"r","messages":[],"forwardedProps":null,"protocolVersion":"7.0"}}`,
			&RunStarted{ThreadID: "th", RunID: "r", Input: &RunAgentInput{ThreadID: "th", RunID: "r", ProtocolVersion: "7.0",
				Messages: []Message{}, Tools: []Tool{}, Context: []ContextItem{}}}},
		{`{"type":"RUN_FINISHED","threadId":"th","runId":"r","result":null,"outcome":null}`,
			&RunFinished{ThreadID: "th", RunID: "r"}},
		{`{"type":"RUN_FINISHED","threadId":"th","runId":"r","result":42,"outcome":{"type":"success","pendingToolCallIds":["a"]},"usage":[{"model":"m","inputTokens":10,"outputTokens":1e1,"cacheWriteInputTokens":0}]}`,
			&RunFinished{ThreadID: "th", RunID: "r", Result: raw(`42`), Outcome: &Outcome{Type: OutcomeSuccess, PendingToolCallIDs: []string{"a"}},
				Usage: []TokenUsage{{Model: "m", InputTokens: new(int64(10)), OutputTokens: new(int64(10)), CacheWriteInputTokens: new(int64(0))}}}},
		{`{"type":"RUN_FINISHED","threadId":"th","runId":"r","outcome":{"type":"interrupt","interrupts":[{"id":"i","reason":"r","message":"m","toolCallId":"t","responseSchema":{"type":"object"},"expiresAt":"2030-01-01T00:00:00Z","metadata":{"k":null},"subagentRunId":"s"}]}}`,
			&RunFinished{ThreadID: "th", RunID: "r", Outcome: &Outcome{Type: OutcomeInterrupt, Interrupts: []Interrupt{{
				ID: "i", Reason: "r", Message: "m", ToolCallID: "t", ResponseSchema: map[string]any{"type": "object"},
				ExpiresAt: "2030-01-01T00:00:00Z", Metadata: map[string]any{"k": nil}, SubagentRunID: "s"}}}}},
		{`{"type":"RUN_FINISHED","threadId":"th","runId":"r","outcome":{"type":"cancelled","reason":"user"}}`,
			&RunFinished{ThreadID: "th", RunID: "r", Outcome: &Outcome{Type: OutcomeCancelled}}},
		{`{"type":"RUN_ERROR","message":"boom","code":"X","usage":[]}`, &RunError{Message: "boom", Code: "X", Usage: []TokenUsage{}}},
		{`{"type":"STEP_STARTED","stepName":"s","metadata":{"a":"b"}}`, &StepStarted{Base: Base{Metadata: map[string]any{"a": "b"}}, StepName: "s"}},
		{`{"type":"STEP_FINISHED","stepName":"s","metadata":null,"rawEvent":null}`, &StepFinished{StepName: "s"}},
		{`{"type":"REASONING_START","messageId":"r"}`, &ReasoningStart{MessageID: "r"}},
		{`{"type":"REASONING_MESSAGE_START","messageId":"r","role":"reasoning"}`, &ReasoningMessageStart{MessageID: "r"}},
		{`{"type":"REASONING_MESSAGE_CONTENT","messageId":"r","delta":"x"}`, &ReasoningMessageContent{MessageID: "r", Delta: "x"}},
		{`{"type":"REASONING_MESSAGE_END","messageId":"r"}`, &ReasoningMessageEnd{MessageID: "r"}},
		{`{"type":"REASONING_MESSAGE_CHUNK","delta":"x"}`, &ReasoningMessageChunk{Delta: "x"}},
		{`{"type":"REASONING_END","messageId":"r"}`, &ReasoningEnd{MessageID: "r"}},
		{`{"type":"REASONING_ENCRYPTED_VALUE","subtype":"tool-call","entityId":"t","encryptedValue":"xyz"}`,
			&ReasoningEncryptedValue{Subtype: EncryptedToolCall, EntityID: "t", EncryptedValue: "xyz"}},
		{`{"type":"SUBAGENT_STARTED","subagentRunId":"","name":"n"}`, &SubagentStarted{Name: "n"}},
		{`{"type":"SUBAGENT_STARTED","subagentRunId":"s","name":"n","description":"d","parentSubagentRunId":"p","parentToolCallId":"t","parentMessageId":"m"}`,
			&SubagentStarted{SubagentRunID: "s", Name: "n", Description: "d", ParentSubagentRunID: "p", ParentToolCallID: "t", ParentMessageID: "m"}},
		{`{"type":"SUBAGENT_FINISHED","subagentRunId":"s","result":{"ok":true},"outcome":{"type":"suspended","interruptIds":["i"]}}`,
			&SubagentFinished{SubagentRunID: "s", Result: raw(`{"ok":true}`), Outcome: &SubagentOutcome{Type: "suspended", InterruptIDs: []string{"i"}}}},
		{`{"type":"SUBAGENT_FINISHED","subagentRunId":"s","outcome":{"type":"success"}}`,
			&SubagentFinished{SubagentRunID: "s", Outcome: &SubagentOutcome{Type: "success"}}},
		{`{"type":"SUBAGENT_ERROR","subagentRunId":"s","message":"m","code":"c"}`, &SubagentError{SubagentRunID: "s", Message: "m", Code: "c"}},
		{" \n{\"unknownKey\":{\"deep\":[1]},\"type\":\"STEP_STARTED\",\"stepName\":\"s\",\"timestamp\":-5}\n",
			&StepStarted{Base: Base{Timestamp: -5}, StepName: "s"}},
	}
	seen := map[EventType]bool{}
	for _, tt := range tests {
		got, err := DecodeEvent([]byte(tt.in))
		if err != nil {
			t.Errorf("DecodeEvent(%s): %v", tt.in, err)
			continue
		}
		seen[got.Type()] = true
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("DecodeEvent(%s)\n got %#v\nwant %#v", tt.in, got, tt.want)
		}
	}
	for _, et := range EventTypes() {
		if !seen[et] {
			t.Errorf("no decoding test for %s", et)
		}
	}
}

func TestDecodeEventErrors(t *testing.T) {
	tests := []struct {
		in        string
		want      string
		malformed bool
	}{
		{``, "invalid JSON at offset 0: unexpected end of JSON input", true},
		{`{"type":"STEP_STARTED"`, "invalid JSON at offset 22: unexpected end of JSON input", true},
		{`{"type":"STEP_STARTED",}`, "invalid JSON at offset 24: invalid character '}' looking for beginning of object key string", true},
		{`[1]`, "expected a JSON object, got array", true},
		{`null`, "expected a JSON object, got null", true},
		{`{}`, "type: required", false},
		{`{"type":7}`, "type: expected string, got number", false},
		{`{"type":"META"}`, `type: unknown event type "META"`, false},
		{`{"type":"THINKING_START"}`, `type: unknown event type "THINKING_START"`, false},
		{`{"type":"STEP_STARTED","stepName":"s","timestamp":1.5}`, "timestamp: expected integer, got 1.5", false},
		{`{"type":"STEP_STARTED","stepName":"s","timestamp":"1"}`, "timestamp: expected integer, got string", false},
		{`{"type":"STEP_STARTED","stepName":"s","timestamp":9007199254740992}`, "timestamp: integer 9007199254740992 out of range [-9007199254740991, 9007199254740991]", false},
		{`{"type":"STEP_STARTED","stepName":"s","timestamp":1e300}`, "timestamp: integer 1e300 out of range", false},
		{`{"type":"STEP_STARTED","stepName":"s","metadata":[]}`, "metadata: expected object, got array", false},
		{`{"type":"STEP_STARTED","stepName":"s","subagentRunId":5}`, "subagentRunId: expected string, got number", false},
		{`{"type":"TEXT_MESSAGE_START","messageId":"m","role":"tool"}`, `role: unknown role "tool"`, false},
		{`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m"}`, "delta: required", false},
		{`{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"t","content":{}}`, "content: expected string or array, got object", false},
		{`{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"t","content":[{"type":"binary","data":"x"}]}`, `content[0].type: unknown part type "binary"`, false},
		{`{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"t","content":[{"type":"image","source":{"type":"data","value":"x"}}]}`, "content[0].source.mimeType: required", false},
		{`{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"t","content":[{"type":"audio","source":{"type":"ftp","value":"x"}}]}`, `content[0].source.type: unknown source type "ftp"`, false},
		{`{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"t","content":[{"type":"audio"}]}`, "content[0].source: required", false},
		{`{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"t","content":"x","role":"user"}`, `role: unknown role "user"`, false},
		{`{"type":"STATE_SNAPSHOT"}`, "snapshot: required", false},
		{`{"type":"RAW"}`, "event: required", false},
		{`{"type":"CUSTOM","name":"c"}`, "value: required", false},
		{`{"type":"STATE_DELTA","delta":null}`, "delta: expected array, got null", false},
		{`{"type":"STATE_DELTA","delta":[{"op":"add","path":"foo","value":1}]}`, `delta[0].path: invalid JSON pointer "foo"`, false},
		{`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a~2","value":1}]}`, `delta[0].path: invalid JSON pointer "/a~2"`, false},
		{`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a~"}]}`, `delta[0].path: invalid JSON pointer "/a~"`, false},
		{`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a"}]}`, "delta[0].value: required", false},
		{`{"type":"STATE_DELTA","delta":[{"op":"copy","path":"/a"}]}`, "delta[0].from: required", false},
		{`{"type":"STATE_DELTA","delta":[{"op":"merge","path":"/a"}]}`, `delta[0].op: unknown op "merge"`, false},
		{`{"type":"ACTIVITY_SNAPSHOT","messageId":"m","activityType":"a","content":[]}`, "content: expected object, got array", false},
		{`{"type":"ACTIVITY_SNAPSHOT","messageId":"m","activityType":"a","content":null}`, "content: expected object, got null", false},
		{`{"type":"ACTIVITY_SNAPSHOT","messageId":"m","activityType":"a","content":{},"replace":"yes"}`, "replace: expected boolean, got string", false},
		{`{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"1","role":"user","content":"x"},{"id":"2","role":"robot"}]}`, `messages[1].role: unknown role "robot"`, false},
		{`{"type":"RUN_STARTED","threadId":"t","runId":"r","input":{"threadId":"t","runId":"r"}}`, "input.messages: required", false},
		{`{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"aborted"}}`, `outcome.type: unknown outcome type "aborted"`, false},
		{`{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"interrupt","interrupts":[]}}`, "outcome.interrupts: expected at least one interrupt", false},
		{`{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"interrupt","interrupts":[{"id":"i"}]}}`, "outcome.interrupts[0].reason: required", false},
		{`{"type":"RUN_FINISHED","threadId":"t","runId":"r","usage":[{"inputTokens":1.5}]}`, "usage[0].inputTokens: expected integer, got 1.5", false},
		{`{"type":"RUN_ERROR","message":"m","usage":[{"totalTokens":-1}]}`, "usage[0].totalTokens: integer -1 out of range [0, 9007199254740991]", false},
		{`{"type":"REASONING_MESSAGE_START","messageId":"r"}`, "role: required", false},
		{`{"type":"REASONING_ENCRYPTED_VALUE","subtype":"x","entityId":"e","encryptedValue":"v"}`, `subtype: unknown subtype "x"`, false},
		{`{"type":"SUBAGENT_STARTED","name":"n"}`, "subagentRunId: required", false},
		{`{"type":"SUBAGENT_STARTED","subagentRunId":null,"name":"n"}`, "subagentRunId: expected string, got null", false},
		{`{"type":"SUBAGENT_FINISHED","subagentRunId":"s","outcome":{"type":"error"}}`, `outcome.type: unknown outcome type "error"`, false},
		{`{"type":"SUBAGENT_ERROR","subagentRunId":"s"}`, "message: required", false},
		{`{"type":"CUSTOM","name":"c","value":1,"metadata":{"weird key":1},"subagentRunId":[]}`, "subagentRunId: expected string, got array", false},
	}
	for _, tt := range tests {
		ev, err := DecodeEvent([]byte(tt.in))
		var ie *InputError
		if !errors.As(err, &ie) {
			t.Errorf("DecodeEvent(%s) = %v, %v; want *InputError", tt.in, ev, err)
			continue
		}
		if ev != nil {
			t.Errorf("DecodeEvent(%s) returned an event with an error", tt.in)
		}
		if got := err.Error(); got != tt.want {
			t.Errorf("DecodeEvent(%s) error\n got %q\nwant %q", tt.in, got, tt.want)
		}
		if ie.Malformed != tt.malformed {
			t.Errorf("DecodeEvent(%s) Malformed = %v, want %v", tt.in, ie.Malformed, tt.malformed)
		}
	}
}

// TestDecodeEventCopiesItsInput checks that a decoded event shares no
// memory with the buffer it came from, which transports reuse.
func TestDecodeEventCopiesItsInput(t *testing.T) {
	buf := []byte(`{"type":"CUSTOM","name":"n","value":{"k":"v"},"rawEvent":[1],"metadata":{"m":"x"}}`)
	ev, err := DecodeEvent(buf)
	if err != nil {
		t.Fatal(err)
	}
	before, err := ev.AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range buf {
		buf[i] = ' '
	}
	after, err := ev.AppendJSON(nil)
	if err != nil || string(after) != string(before) {
		t.Errorf("event changed with its input buffer:\n%s\n%s (%v)", before, after, err)
	}
}
