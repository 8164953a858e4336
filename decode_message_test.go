package agui

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

func TestDecodeMessageRoles(t *testing.T) {
	tests := []struct {
		in   string
		want Message
	}{
		{`{"id":"1","role":"developer","content":"c","subagentRunId":"s"}`, &DeveloperMessage{ID: "1", Content: "c", SubagentRunID: "s"}},
		{`{"id":"1","role":"system","content":"c","encryptedValue":"e"}`, &SystemMessage{ID: "1", Content: "c", EncryptedValue: "e"}},
		{`{"id":"1","role":"assistant"}`, &AssistantMessage{ID: "1"}},
		{`{"id":"1","role":"user","content":"hi","name":"bob"}`, &UserMessage{ID: "1", Content: TextContent("hi"), Name: "bob"}},
		{`{"id":"1","role":"tool","content":"r","toolCallId":"t"}`, &ToolMessage{ID: "1", Content: TextContent("r"), ToolCallID: "t"}},
		{`{"id":"1","role":"activity","activityType":"A","content":{"n":1.5}}`, &ActivityMessage{ID: "1", ActivityType: "A", Content: map[string]any{"n": json.Number("1.5")}}},
		{`{"id":"1","role":"reasoning","content":"r","metadata":{"a":[1]}}`, &ReasoningMessage{ID: "1", Content: "r", Metadata: map[string]any{"a": []any{json.Number("1")}}}},
	}
	for _, tt := range tests {
		got, err := DecodeMessage([]byte(tt.in))
		if err != nil {
			t.Errorf("DecodeMessage(%s): %v", tt.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("DecodeMessage(%s)\n got %#v\nwant %#v", tt.in, got, tt.want)
		}
	}
}

func TestDecodeMessageErrors(t *testing.T) {
	tests := map[string]string{
		`{"id":"1","role":"robot"}`:                     `role: unknown role "robot"`,
		`{"id":"1"}`:                                    "role: required",
		`{"id":"1","role":"system"}`:                    "content: required",
		`{"id":"1","role":"user","content":null}`:       "content: expected string or array, got null",
		`{"id":"1","role":"reasoning","content":["x"]}`: "content: expected string, got array",
		`[]`: "expected a JSON object, got array",
	}
	for in, want := range tests {
		m, err := DecodeMessage([]byte(in))
		if m != nil || err == nil || err.Error() != want {
			t.Errorf("DecodeMessage(%s) = %v, %v; want error %q", in, m, err, want)
		}
	}
}

func TestContentUnmarshalJSON(t *testing.T) {
	var s struct{ C Content }
	if err := json.Unmarshal([]byte(`{"C":"plain"}`), &s); err != nil || s.C.IsParts() || s.C.Text != "plain" {
		t.Errorf("string form: %+v, %v", s.C, err)
	}
	if err := json.Unmarshal([]byte(`{"C":[]}`), &s); err != nil || !s.C.IsParts() || len(s.C.Parts) != 0 {
		t.Errorf("empty parts: %+v, %v", s.C, err)
	}
	if err := json.Unmarshal([]byte(`{"C":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}`), &s); err != nil || s.C.String() != "a\nb" {
		t.Errorf("parts: %+v, %v", s.C, err)
	}
	before := s.C
	if err := json.Unmarshal([]byte(`{"C":null}`), &s); err != nil || !reflect.DeepEqual(s.C, before) {
		t.Errorf("null must leave content unchanged: %+v, %v", s.C, err)
	}
	var c Content
	err := c.UnmarshalJSON([]byte(`[{"type":"text","text":"a"},{"type":"image","source":{"type":"url"}}]`))
	var ie *InputError
	if !errors.As(err, &ie) || err.Error() != "[1].source.value: required" || ie.Malformed {
		t.Errorf("bad part: %v", err)
	}
	if err := c.UnmarshalJSON([]byte(`{"type":"text"}`)); err == nil || err.Error() != "expected string or array, got object" {
		t.Errorf("object content: %v", err)
	}
	if err := c.UnmarshalJSON([]byte(`["x`)); !errors.As(err, &ie) || !ie.Malformed {
		t.Errorf("truncated content: %v", err)
	}
}
