package agui

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// checkInputError fails unless err is a well-formed *InputError.
func checkInputError(t *testing.T, err error) {
	t.Helper()
	var ie *InputError
	if !errors.As(err, &ie) {
		t.Fatalf("error %T (%v) is not an *InputError", err, err)
	}
	if ie.Reason == "" {
		t.Fatalf("InputError without a reason: %#v", ie)
	}
}

// reencode encodes ev, decodes the encoding and encodes again; the two
// encodings must be equal, byte for byte.
func reencode(t *testing.T, ev Event) []byte {
	t.Helper()
	enc, err := ev.AppendJSON(nil)
	if err != nil {
		t.Fatalf("AppendJSON of a decoded %s: %v", ev.Type(), err)
	}
	again, err := DecodeEvent(enc)
	if err != nil {
		t.Fatalf("our own encoding does not decode: %v\n%s", err, enc)
	}
	enc2, err := again.AppendJSON(nil)
	if err != nil {
		t.Fatalf("AppendJSON of a re-decoded %s: %v", ev.Type(), err)
	}
	if !bytes.Equal(enc, enc2) {
		t.Fatalf("encoding is not stable:\n first %s\nsecond %s", enc, enc2)
	}
	return enc
}

func FuzzDecodeEvent(f *testing.F) {
	for _, s := range append(eventSamples(), moreSamples()...) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ev, err := DecodeEvent(data)
		if err != nil {
			if ev != nil {
				t.Fatalf("an event and an error: %v", err)
			}
			checkInputError(t, err)
			return
		}
		enc := reencode(t, ev)
		if down, keep := Downgrade(ev); keep {
			if _, err := down.AppendJSON(nil); err != nil {
				t.Fatalf("AppendJSON of a downgraded %s: %v", down.Type(), err)
			}
		}
		if after, _ := ev.AppendJSON(nil); !bytes.Equal(after, enc) {
			t.Fatalf("Downgrade modified its argument:\nbefore %s\n after %s", enc, after)
		}
	})
}

func FuzzDecodeRunAgentInput(f *testing.F) {
	f.Add([]byte(`{"threadId":"t","runId":"r","messages":[]}`))
	f.Add([]byte(`{"threadId":"t","runId":"r","messages":[],"state":null,"forwardedProps":null,"protocolVersion":"1.1","x":1}`))
	f.Add([]byte(`{"threadId":"t","runId":"r","messages":[{"id":"1","role":"robot"}]}`))
	f.Add([]byte(`{"threadId":"t","runId":"r","protocolVersion":"2.0","messages":[]}`))
	var started struct{ Input json.RawMessage }
	if err := json.Unmarshal([]byte(eventSamples()[16]), &started); err != nil {
		f.Fatal(err)
	}
	f.Add([]byte(started.Input))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := DecodeInput(data)
		strict, serr := DecodeInput(data, Strict())
		if serr == nil && (err != nil || !reflect.DeepEqual(in, strict)) {
			t.Fatalf("strict accepts what lenient does not decode alike: %v", err)
		}
		if serr != nil {
			checkInputError(t, serr)
		}
		if err != nil {
			if in != nil {
				t.Fatalf("input and an error: %v", err)
			}
			checkInputError(t, err)
			return
		}
		if in.Messages == nil || in.Tools == nil || in.Context == nil {
			t.Fatalf("nil required slice in %#v", in)
		}
		reencode(t, &RunStarted{ThreadID: in.ThreadID, RunID: in.RunID, Input: in})
	})
}

// FuzzDecodeInputAgreesWithEncodingJSON checks DecodeInput against
// encoding/json on random bodies: a body encoding/json finds malformed is
// refused as malformed, and a body DecodeInput accepts reads alike
// through encoding/json into plain maps: the ids, roles, texts and tool
// calls of its messages.
func FuzzDecodeInputAgreesWithEncodingJSON(f *testing.F) {
	f.Add(benchInput(4))
	f.Add([]byte(`{"threadId":"t\u00e9","runId":"r","messages":[{"id":"a\"b","role":"user","content":"x\ny"},{"id":"i","id":"j","role":"assistant","toolCalls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{\"a\":\ud83d\ude00}"}}]}]}`))
	f.Add([]byte("{\"threadId\":\"\xff\xfe\",\"runId\":\"\\ud800\",\"messages\":[{\"id\":\"m\",\"role\":\"tool\",\"toolCallId\":\"\xc3\",\"content\":\"\\u0000\"}]}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := DecodeInput(data)
		if !json.Valid(data) {
			var ie *InputError
			if !errors.As(err, &ie) || !ie.Malformed {
				t.Fatalf("encoding/json finds the body malformed, DecodeInput: %v", err)
			}
			return
		}
		if err != nil {
			return
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("DecodeInput accepts what encoding/json does not: %v", err)
		}
		same := func(what, got string, want any) {
			t.Helper()
			if w, _ := want.(string); got != w {
				t.Fatalf("%s: %q, encoding/json %q", what, got, w)
			}
		}
		same("threadId", in.ThreadID, m["threadId"])
		same("runId", in.RunID, m["runId"])
		msgs, _ := m["messages"].([]any)
		if len(msgs) != len(in.Messages) {
			t.Fatalf("%d messages, encoding/json %d", len(in.Messages), len(msgs))
		}
		for i, msg := range in.Messages {
			mm, _ := msgs[i].(map[string]any)
			same("id", msg.MessageID(), mm["id"])
			same("role", string(msg.Role()), mm["role"])
			switch msg := msg.(type) {
			case *UserMessage:
				if msg.Content.Parts == nil {
					same("content", msg.Content.Text, mm["content"])
				}
			case *ToolMessage:
				same("toolCallId", msg.ToolCallID, mm["toolCallId"])
				if msg.Content.Parts == nil {
					same("content", msg.Content.Text, mm["content"])
				}
			case *AssistantMessage:
				if msg.Content != "" {
					same("content", msg.Content, mm["content"])
				}
				calls, _ := mm["toolCalls"].([]any)
				if len(calls) != len(msg.ToolCalls) {
					t.Fatalf("%d tool calls, encoding/json %d", len(msg.ToolCalls), len(calls))
				}
				for j, c := range msg.ToolCalls {
					cm, _ := calls[j].(map[string]any)
					fm, _ := cm["function"].(map[string]any)
					same("tool call id", c.ID, cm["id"])
					same("function name", c.Function.Name, fm["name"])
					same("arguments", c.Function.Arguments, fm["arguments"])
				}
			}
		}
	})
}
