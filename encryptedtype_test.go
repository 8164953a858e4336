package agui_test

import (
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/agui-go/agui"
)

// typedEvents are the three carriers of encryptedValueType (AG-UI 1.1):
// REASONING_ENCRYPTED_VALUE, and every message kind that holds an
// encryptedValue, with a tool call, in MESSAGES_SNAPSHOT and RUN_STARTED's
// input.
func typedEvents() []agui.Event {
	msgs := []agui.Message{
		&agui.DeveloperMessage{ID: "m-dev", Content: "c", EncryptedValue: "v-dev", EncryptedValueType: "acme.dev"},
		&agui.SystemMessage{ID: "m-sys", Content: "c", EncryptedValue: "v-sys", EncryptedValueType: "acme.sys"},
		&agui.AssistantMessage{ID: "m-asst", Content: "c", ToolCalls: []agui.ToolCall{
			{ID: "tc-1", Function: agui.FunctionCall{Name: "f", Arguments: "{}"}, EncryptedValue: "v-tc", EncryptedValueType: "acme.tc"},
			{ID: "tc-2", Function: agui.FunctionCall{Name: "g", Arguments: "{}"}},
		}, EncryptedValue: "v-asst", EncryptedValueType: "acme.asst"},
		&agui.UserMessage{ID: "m-user", Content: agui.TextContent("c"), EncryptedValue: "v-user", EncryptedValueType: "acme.user"},
		&agui.ToolMessage{ID: "m-tool", ToolCallID: "tc-1", Content: agui.TextContent("c"), EncryptedValue: "v-tool", EncryptedValueType: "acme.tool"},
		&agui.ReasoningMessage{ID: "m-reason", Content: "c", EncryptedValue: "v-r", EncryptedValueType: "anthropic.thinking_signature"},
	}
	return []agui.Event{
		&agui.ReasoningEncryptedValue{Subtype: agui.EncryptedMessage, EntityID: "r-1", EncryptedValue: "b3BhcXVl",
			EncryptedValueType: "anthropic.redacted_thinking"},
		&agui.MessagesSnapshot{Messages: msgs},
		&agui.RunStarted{ThreadID: "t", RunID: "r", ProtocolVersion: agui.LatestProtocolVersion,
			Input: &agui.RunAgentInput{ThreadID: "t", RunID: "r", Messages: msgs, ProtocolVersion: agui.LatestProtocolVersion}},
	}
}

var typeAfterValue = regexp.MustCompile(`"encryptedValue":"[^"]+","encryptedValueType":"[^"]+"`)

// typeCount is how many encryptedValueType members typedEvents' JSON has.
var typeCount = []int{1, 7, 7}

func TestEncryptedValueTypeJSON(t *testing.T) {
	for i, ev := range typedEvents() {
		t.Run(string(ev.Type()), func(t *testing.T) {
			js, err := ev.AppendJSON(nil)
			if err != nil {
				t.Fatal(err)
			}
			s := string(js)
			if got := strings.Count(s, `"encryptedValueType":`); got != typeCount[i] {
				t.Errorf("%d encryptedValueType members, want %d: %s", got, typeCount[i], s)
			}
			// The type directly follows its value, as in the spec's schema.
			if got := len(typeAfterValue.FindAllString(s, -1)); got != typeCount[i] {
				t.Errorf("a type does not directly follow its value: %s", s)
			}
			back, err := agui.DecodeEvent(js)
			if err != nil {
				t.Fatal(err)
			}
			again, err := back.AppendJSON(nil)
			if err != nil {
				t.Fatal(err)
			}
			if string(again) != s {
				t.Errorf("JSON round trip changed the event:\n got %s\nwant %s", again, s)
			}
		})
	}
}

func TestEncryptedValueTypeOrderAndOmission(t *testing.T) {
	ev := &agui.ReasoningEncryptedValue{Subtype: agui.EncryptedToolCall, EntityID: "tc-1", EncryptedValue: "v",
		EncryptedValueType: "acme.x", Attribution: agui.Attribution{SubagentRunID: "sub-1"}}
	js, err := ev.AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"REASONING_ENCRYPTED_VALUE","subtype":"tool-call","entityId":"tc-1","encryptedValue":"v","encryptedValueType":"acme.x","subagentRunId":"sub-1"}`
	if string(js) != want {
		t.Errorf("got  %s\nwant %s", js, want)
	}
	ev.EncryptedValueType = ""
	if js, _ = ev.AppendJSON(nil); strings.Contains(string(js), "encryptedValueType") {
		t.Errorf("an empty type is written: %s", js)
	}
	tc, err := agui.ToolCall{ID: "tc", EncryptedValue: "v", EncryptedValueType: "acme.y", Metadata: map[string]any{"k": 1.0}}.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"id":"tc","type":"function","function":{"name":"","arguments":""},"encryptedValue":"v","encryptedValueType":"acme.y","metadata":{"k":1}}`; string(tc) != want {
		t.Errorf("got  %s\nwant %s", tc, want)
	}
}

func TestEncryptedValueTypeProto(t *testing.T) {
	for _, ev := range typedEvents() {
		t.Run(string(ev.Type()), func(t *testing.T) {
			frame, err := agui.AppendProto(nil, ev)
			if err != nil {
				t.Fatal(err)
			}
			back, err := agui.DecodeProto(frame)
			if err != nil {
				t.Fatal(err)
			}
			assertSameJSON(t, back, ev)
		})
	}
}

func TestDowngrade10StripsTypes(t *testing.T) {
	for _, ev := range typedEvents() {
		t.Run(string(ev.Type()), func(t *testing.T) {
			before, _ := ev.AppendJSON(nil)
			for name, down := range map[string]func(agui.Event) agui.Event{
				"Downgrade10": agui.Downgrade10,
				"Downgrade":   func(ev agui.Event) agui.Event { out, _ := agui.Downgrade(ev); return out },
			} {
				out := down(ev)
				js, err := out.AppendJSON(nil)
				if err != nil {
					t.Fatal(err)
				}
				if strings.Contains(string(js), "encryptedValueType") {
					t.Errorf("%s keeps a type: %s", name, js)
				}
				if n := strings.Count(string(js), `"encryptedValue":`); n != strings.Count(string(before), `"encryptedValue":`) {
					t.Errorf("%s dropped a value: %s", name, js)
				}
			}
			if after, _ := ev.AppendJSON(nil); string(after) != string(before) {
				t.Errorf("the downgrade modified its argument:\n got %s\nwant %s", after, before)
			}
		})
	}
	for _, ev := range []agui.Event{
		&agui.ReasoningEncryptedValue{Subtype: agui.EncryptedMessage, EntityID: "r", EncryptedValue: "v"},
		&agui.MessagesSnapshot{Messages: []agui.Message{&agui.AssistantMessage{ID: "a", EncryptedValue: "v",
			ToolCalls: []agui.ToolCall{{ID: "tc", EncryptedValue: "v"}}}}},
		&agui.RunStarted{ThreadID: "t", RunID: "r"},
		&agui.TextMessageContent{MessageID: "m", Delta: "d"},
	} {
		if out := agui.Downgrade10(ev); !reflect.DeepEqual(out, ev) || out != ev {
			t.Errorf("%s without a type was copied or changed", ev.Type())
		}
	}
}
