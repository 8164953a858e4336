package agui

import (
	"errors"
	"reflect"
	"testing"
)

func TestDecodeInputFull(t *testing.T) {
	body := `{
		"threadId": "th", "runId": "r", "protocolVersion": "1.0", "parentRunId": "p",
		"state": {"count": 1},
		"messages": [
			{"id": "d", "role": "developer", "content": "dev"},
			{"id": "s", "role": "system", "content": "sys", "name": "n"},
			{"id": "u", "role": "user", "content": [
				{"type": "text", "text": "look", "id": "p1"},
				{"type": "image", "source": {"type": "data", "value": "AAAA", "mimeType": "image/png"}, "metadata": {"w": 1}},
				{"type": "video", "source": {"type": "file", "value": "f-1", "provider": "google"}}
			], "encryptedValue": "e", "metadata": {"k": "v"}, "subagentRunId": "sa"},
			{"id": "a", "role": "assistant", "content": null, "toolCalls": [
				{"id": "tc", "type": "function", "function": {"name": "f", "arguments": "{}"}, "encryptedValue": "x"}
			]},
			{"id": "t", "role": "tool", "toolCallId": "tc", "content": [{"type": "text", "text": "done"}], "error": "e"},
			{"id": "ac", "role": "activity", "activityType": "SEARCH", "content": {"q": "x"}},
			{"id": "re", "role": "reasoning", "content": "hmm"}
		],
		"tools": [{"name": "f", "description": "does f", "parameters": {"type": "object"}, "metadata": {"m": true}}],
		"context": [{"description": "locale", "value": "en"}],
		"forwardedProps": {"x": 1},
		"resume": [{"interruptId": "i", "status": "resolved", "payload": {"ok": true}}, {"interruptId": "j", "status": "cancelled"}]
	}`
	got, err := DecodeInput([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	want := &RunAgentInput{
		ThreadID: "th", RunID: "r", ProtocolVersion: "1.0", ParentRunID: "p",
		State: raw(`{"count":1}`),
		Messages: []Message{
			&DeveloperMessage{ID: "d", Content: "dev"},
			&SystemMessage{ID: "s", Content: "sys", Name: "n"},
			&UserMessage{ID: "u", Content: PartsContent(
				ContentPart{Type: PartText, Text: "look", ID: "p1"},
				ContentPart{Type: PartImage, Source: &PartSource{Type: SourceData, Value: "AAAA", MimeType: "image/png"}, Metadata: raw(`{"w":1}`)},
				ContentPart{Type: PartVideo, Source: &PartSource{Type: SourceFile, Value: "f-1", Provider: "google"}},
			), EncryptedValue: "e", Metadata: map[string]any{"k": "v"}, SubagentRunID: "sa"},
			&AssistantMessage{ID: "a", ToolCalls: []ToolCall{{ID: "tc", Function: FunctionCall{Name: "f", Arguments: "{}"}, EncryptedValue: "x"}}},
			&ToolMessage{ID: "t", ToolCallID: "tc", Content: PartsContent(TextPart("done")), Error: "e"},
			&ActivityMessage{ID: "ac", ActivityType: "SEARCH", Content: map[string]any{"q": "x"}},
			&ReasoningMessage{ID: "re", Content: "hmm"},
		},
		Tools:          []Tool{{Name: "f", Description: "does f", Parameters: raw(`{"type":"object"}`), Metadata: map[string]any{"m": true}}},
		Context:        []ContextItem{{Description: "locale", Value: "en"}},
		ForwardedProps: raw(`{"x":1}`),
		Resume: []ResumeEntry{
			{InterruptID: "i", Status: ResumeResolved, Payload: raw(`{"ok":true}`)},
			{InterruptID: "j", Status: ResumeCancelled},
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("DecodeInput\n got %#v\nwant %#v", got, want)
	}
	if _, err := DecodeInput([]byte(body), Strict()); err != nil {
		t.Errorf("strict: a body of described keys only: %v", err)
	}
}

func TestDecodeInputLenientDefaults(t *testing.T) {
	got, err := DecodeInput([]byte(`{"threadId":"t","runId":"r","messages":[],"state":null,"forwardedProps":null,"extra":{"x":1},"parentRunId":null}`))
	if err != nil {
		t.Fatal(err)
	}
	want := &RunAgentInput{ThreadID: "t", RunID: "r", Messages: []Message{}, Tools: []Tool{}, Context: []ContextItem{}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v\nwant %#v", got, want)
	}
	if got.State != nil || got.ForwardedProps != nil {
		t.Errorf("null state/forwardedProps must read as a nil interface, got %#v / %#v", got.State, got.ForwardedProps)
	}
}

func TestDecodeInputVersions(t *testing.T) {
	for _, v := range []string{"1", "1.0", "1.1", "1.27"} {
		in, err := DecodeInput([]byte(`{"threadId":"t","runId":"r","messages":[],"protocolVersion":"` + v + `"}`))
		if err != nil || in.ProtocolVersion != v {
			t.Errorf("protocolVersion %q: %v, %+v", v, err, in)
		}
	}
	for _, v := range []string{"2.0", "0.0.58", "", "10", "v1"} {
		_, err := DecodeInput([]byte(`{"threadId":"t","runId":"r","messages":[],"protocolVersion":"` + v + `"}`))
		want := `protocolVersion: unsupported protocol version "` + v + `": this server speaks 1.x`
		if err == nil || err.Error() != want {
			t.Errorf("protocolVersion %q: got %v, want %s", v, err, want)
		}
	}
}

func TestDecodeInputErrors(t *testing.T) {
	const ok = `"threadId":"t","runId":"r"`
	tests := []struct {
		in        string
		strict    bool
		want      string
		malformed bool
	}{
		{`{"threadId":"t"`, false, "invalid JSON at offset 15: unexpected end of JSON input", true},
		{`"hello"`, false, "expected a JSON object, got string", true},
		{`{}`, false, "threadId: required", false},
		{`{"threadId":1}`, false, "threadId: expected string, got number", false},
		{`{"threadId":null,"runId":"r","messages":[]}`, false, "threadId: expected string, got null", false},
		{`{"threadId":"t","messages":[]}`, false, "runId: required", false},
		{`{` + ok + `}`, false, "messages: required", false},
		{`{` + ok + `,"messages":{}}`, false, "messages: expected array, got object", false},
		{`{` + ok + `,"messages":[{"id":"1","role":"user","content":"a"},{"id":"2","role":"user","content":"b"},{"id":"3","role":"robot"}]}`, false, `messages[2].role: unknown role "robot"`, false},
		{`{` + ok + `,"messages":[{"id":"1","content":"a"}]}`, false, "messages[0].role: required", false},
		{`{` + ok + `,"messages":[7]}`, false, "messages[0]: expected object, got number", false},
		{`{` + ok + `,"messages":[{"role":"user","content":"a"}]}`, false, "messages[0].id: required", false},
		{`{` + ok + `,"messages":[{"id":"1","role":"user","content":5}]}`, false, "messages[0].content: expected string or array, got number", false},
		{`{` + ok + `,"messages":[{"id":"1","role":"user","content":[{"type":"text"}]}]}`, false, "messages[0].content[0].text: required", false},
		{`{` + ok + `,"messages":[{"id":"1","role":"user","content":[{"type":"image","source":{"type":"url"}}]}]}`, false, "messages[0].content[0].source.value: required", false},
		{`{` + ok + `,"messages":[{"id":"1","role":"assistant","content":7}]}`, false, "messages[0].content: expected string, got number", false},
		{`{` + ok + `,"messages":[{"id":"1","role":"assistant","toolCalls":[{"id":"c","type":"function"}]}]}`, false, "messages[0].toolCalls[0].function: required", false},
		{`{` + ok + `,"messages":[{"id":"1","role":"assistant","toolCalls":[{"id":"c","type":"f","function":{}}]}]}`, false, `messages[0].toolCalls[0].type: unknown tool call type "f"`, false},
		{`{` + ok + `,"messages":[{"id":"1","role":"assistant","toolCalls":[{"id":"c","function":{"name":"f","arguments":{}}}]}]}`, false, "messages[0].toolCalls[0].function.arguments: expected string, got object", false},
		{`{` + ok + `,"messages":[{"id":"1","role":"tool","content":"x"}]}`, false, "messages[0].toolCallId: required", false},
		{`{` + ok + `,"messages":[{"id":"1","role":"activity","activityType":"a","content":"x"}]}`, false, "messages[0].content: expected object, got string", false},
		{`{` + ok + `,"messages":[],"tools":[{"name":1}]}`, false, "tools[0].name: expected string, got number", false},
		{`{` + ok + `,"messages":[],"tools":[{"name":"f"}]}`, false, "tools[0].description: required", false},
		{`{` + ok + `,"messages":[],"tools":{}}`, false, "tools: expected array, got object", false},
		{`{` + ok + `,"messages":[],"context":[{"description":"d","value":3}]}`, false, "context[0].value: expected string, got number", false},
		{`{` + ok + `,"messages":[],"resume":[{"interruptId":"i","status":"denied"}]}`, false, `resume[0].status: unknown status "denied"`, false},
		{`{` + ok + `,"messages":[],"resume":[{"status":"resolved"}]}`, false, "resume[0].interruptId: required", false},
		{`{` + ok + `,"messages":[],"protocolVersion":1}`, false, "protocolVersion: expected string, got number", false},
		{`{` + ok + `,"messages":[],"parentRunId":false}`, false, "parentRunId: expected string, got boolean", false},
		{`{` + ok + `,"messages":[],"extra":1}`, true, "extra: unknown field", false},
		{`{` + ok + `,"messages":[],"a b":1}`, true, `["a b"]: unknown field`, false},
		{`{` + ok + `,"messages":[{"id":"1","role":"user","content":"a","foo":1}]}`, true, "messages[0].foo: unknown field", false},
		{`{` + ok + `,"messages":[{"id":"1","role":"user","content":[{"type":"text","text":"a","source":{}}]}]}`, true, "messages[0].content[0].source: unknown field", false},
		{`{` + ok + `,"messages":[{"id":"1","role":"assistant","toolCalls":[{"id":"c","function":{"name":"f","arguments":"","x":0}}]}]}`, true, "messages[0].toolCalls[0].function.x: unknown field", false},
		{`{` + ok + `,"messages":[],"tools":[{"name":"f","description":"d","strict":true}]}`, true, "tools[0].strict: unknown field", false},
		{`{` + ok + `,"messages":[],"resume":[{"interruptId":"i","status":"resolved","note":""}]}`, true, "resume[0].note: unknown field", false},
	}
	for _, tt := range tests {
		var opts []DecodeOption
		if tt.strict {
			opts = append(opts, Strict())
		}
		in, err := DecodeInput([]byte(tt.in), opts...)
		var ie *InputError
		if !errors.As(err, &ie) {
			t.Errorf("DecodeInput(%s) = %+v, %v; want *InputError", tt.in, in, err)
			continue
		}
		if in != nil {
			t.Errorf("DecodeInput(%s) returned input with an error", tt.in)
		}
		if got := err.Error(); got != tt.want {
			t.Errorf("DecodeInput(%s)\n got %q\nwant %q", tt.in, got, tt.want)
		}
		if ie.Malformed != tt.malformed {
			t.Errorf("DecodeInput(%s) Malformed = %v, want %v", tt.in, ie.Malformed, tt.malformed)
		}
		if !tt.strict {
			continue
		}
		if _, err := DecodeInput([]byte(tt.in)); err != nil {
			t.Errorf("lenient DecodeInput(%s) = %v, want unknown keys ignored", tt.in, err)
		}
	}
}

// TestDecodeInputCopiesItsInput checks that a decoded input shares no
// memory with the body it came from, whose buffer the transport reuses,
// and that its escaped strings, unquoted inside the decoder's own copy,
// read right.
func TestDecodeInputCopiesItsInput(t *testing.T) {
	buf := []byte(`{"threadId":"t\u00e9","runId":"r","state":{"a":1},"messages":[` +
		`{"id":"u","role":"user","content":"line\none \"q\""},` +
		`{"id":"a","role":"assistant","toolCalls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{\"x\":1}"}}]},` +
		`{"id":"t","role":"tool","toolCallId":"c","content":"bad ` + "\xff" + ` byte"}]}`)
	in, err := DecodeInput(buf)
	if err != nil {
		t.Fatal(err)
	}
	before, err := (&RunStarted{ThreadID: "t", RunID: "r", Input: in}).AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range buf {
		buf[i] = ' '
	}
	after, err := (&RunStarted{ThreadID: "t", RunID: "r", Input: in}).AppendJSON(nil)
	if err != nil || string(after) != string(before) {
		t.Errorf("input changed with its body:\n%s\n%s (%v)", before, after, err)
	}
	if in.ThreadID != "té" || in.Messages[0].(*UserMessage).Content.Text != "line\none \"q\"" ||
		in.Messages[1].(*AssistantMessage).ToolCalls[0].Function.Arguments != `{"x":1}` ||
		in.Messages[2].(*ToolMessage).Content.Text != "bad \uFFFD byte" {
		t.Errorf("strings decoded wrong: %s", after)
	}
}
