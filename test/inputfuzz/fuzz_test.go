package inputfuzz_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// FuzzDecodeMessage feeds random bytes to DecodeMessage (and so to
// Content.UnmarshalJSON): never a panic, errors are InputErrors, and a
// decoded message encodes (inside a MESSAGES_SNAPSHOT) to JSON that
// decodes back to the same JSON.
func FuzzDecodeMessage(f *testing.F) {
	for _, s := range []string{
		`{"id":"m","role":"user","content":"hi"}`,
		`{"id":"m","role":"user","content":[{"type":"text","text":"a"},{"type":"image","source":{"type":"url","value":"https://x/y.png"}}]}`,
		`{"id":"m","role":"assistant","content":"x","toolCalls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]}`,
		`{"id":"m","role":"tool","toolCallId":"c","content":[{"type":"text","text":"r"}]}`,
		`{"id":"m","role":"reasoning","content":"r","encryptedValue":"e"}`,
		`{"id":"m","role":"activity","activityType":"a","content":{"k":1}}`,
		`{"id":"m","role":"developer","content":"d","subagentRunId":"s"}`,
		`{"id":"m","role":"user","content":[{"type":"document","source":{"type":"data","value":"AA==","mimeType":"application/pdf"}}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := agui.DecodeMessage(data)
		if err != nil {
			if ie := (*agui.InputError)(nil); !errors.As(err, &ie) {
				t.Fatalf("%T is not an InputError: %v", err, err)
			}
			return
		}
		first, err := (&agui.MessagesSnapshot{Messages: []agui.Message{m}}).AppendJSON(nil)
		if err != nil {
			t.Fatalf("a decoded message does not encode: %v", err)
		}
		ev, err := agui.DecodeEvent(first)
		if err != nil {
			t.Fatalf("our own encoding does not decode: %v\n%s", err, first)
		}
		second, err := ev.AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first, second) {
			t.Fatalf("encoding is not stable:\n first %s\nsecond %s", first, second)
		}
	})
}

// FuzzReadInput is the HTTP request surface: random bodies under random
// content types through a core.InputReader with a small body limit. Never a
// panic; a refusal is a RequestError with one of the documented statuses,
// and its body is the documented JSON shape.
func FuzzReadInput(f *testing.F) {
	f.Add("application/json", []byte(`{"threadId":"t","runId":"r","messages":[]}`))
	f.Add("application/json; charset=utf-8", []byte(`{"threadId":"t","runId":"r","protocolVersion":"1.0","messages":[{"id":"u","role":"user","content":"x"}]}`))
	f.Add("application/json", []byte(`{"threadId":"t","runId":"r","messages":[],"protocolVersion":"2.0"}`))
	f.Add("text/plain", []byte(`{}`))
	f.Add("application/json", []byte(`{"threadId":`))
	f.Add("application/json", bytes.Repeat([]byte("x"), 600))
	f.Add("", []byte(nil))
	statuses := map[int]bool{
		http.StatusUnsupportedMediaType: true, http.StatusRequestEntityTooLarge: true,
		http.StatusBadRequest: true, http.StatusUnprocessableEntity: true,
	}
	ir, err := core.NewInputReader(core.WithMaxBodyBytes(512))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, contentType string, body []byte) {
		r := httptest.NewRequest(http.MethodPost, "/agent", bytes.NewReader(body))
		r.Header.Set("Content-Type", contentType)
		w := httptest.NewRecorder()
		in, err := ir.Read(w, r)
		if err == nil {
			// Ids are opaque strings; the protocol allows even empty ones.
			if in == nil {
				t.Fatal("no input and no error")
			}
			return
		}
		re := (*core.RequestError)(nil)
		if !errors.As(err, &re) {
			t.Fatalf("%T is not a RequestError: %v", err, err)
		}
		if !statuses[re.Status] {
			t.Fatalf("status %d for %v", re.Status, err)
		}
		re.WriteHTTP(w)
		var got struct{ Error, Code string }
		if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil || got.Code != string(re.Code) || got.Error == "" {
			t.Fatalf("body %q for %v", w.Body.Bytes(), err)
		}
	})
}
