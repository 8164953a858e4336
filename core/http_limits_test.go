package core

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// body returns a run request with n messages, n tools and n resume
// entries of the kind named.
func limitBody(kind string, n int) string {
	var items []string
	for i := range n {
		switch kind {
		case "messages":
			items = append(items, fmt.Sprintf(`{"id":"m%d","role":"user","content":"hi"}`, i))
		case "tools":
			items = append(items, fmt.Sprintf(`{"name":"t%d","description":"d","parameters":{"type":"object"}}`, i))
		case "resume":
			items = append(items, fmt.Sprintf(`{"interruptId":"i%d","status":"cancelled"}`, i))
		}
	}
	return `{"threadId":"t","runId":"r","messages":[],"` + kind + `":[` + strings.Join(items, ",") + `]}`
}

// Requests over a count limit are refused with 413 INPUT_TOO_LARGE, naming
// the field, before any run starts; at the limit they run.
func TestHandlerInputLimits(t *testing.T) {
	h, err := NewHandler[NoState](sayHi(), WithInputLimits(InputLimits{Messages: 3, Tools: 3, Resume: 3}))
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"messages", "tools", "resume"} {
		for n, want := range map[int]int{3: http.StatusOK, 4: http.StatusRequestEntityTooLarge} {
			rec := httptest.NewRecorder()
			req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(limitBody(kind, n)))
			req.Header.Set("Content-Type", "application/json")
			h.ServeHTTP(rec, req)
			if rec.Code != want {
				t.Fatalf("%d %s: status %d, want %d: %s", n, kind, rec.Code, want, rec.Body.String())
			}
			if want != http.StatusOK {
				var e struct{ Error, Code, Field string }
				if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Code != string(CodeInputTooLarge) || e.Field != kind {
					t.Fatalf("%d %s: body %s", n, kind, rec.Body.String())
				}
				// The refusal says which limit to raise.
				if limit := "InputLimits." + strings.ToUpper(kind[:1]) + kind[1:]; !strings.Contains(e.Error, limit) || !strings.Contains(e.Error, "WithInputLimits") {
					t.Fatalf("%d %s: %q does not name %s", n, kind, e.Error, limit)
				}
			}
		}
	}
}

// A long agentic thread of 10,000 messages of about 300 bytes (user,
// assistant with a tool call, tool result, answer) is within the default
// limits: it runs.
func TestHandlerDefaultsTakeALongThread(t *testing.T) {
	h, err := NewHandler[NoState](sayHi())
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(`{"threadId":"t","runId":"r","messages":[`)
	text := strings.Repeat("a long thread's message, ", 10)
	for i := range 10_000 {
		if i > 0 {
			b.WriteByte(',')
		}
		id, call := strconv.Itoa(i), "call-"+strconv.Itoa(i/4)
		switch i % 4 {
		case 0:
			b.WriteString(`{"id":"m-` + id + `","role":"user","content":"` + text + `"}`)
		case 1:
			b.WriteString(`{"id":"m-` + id + `","role":"assistant","toolCalls":[{"id":"` + call + `","type":"function","function":{"name":"search","arguments":"{\"q\":\"` + text + `\"}"}}]}`)
		case 2:
			b.WriteString(`{"id":"m-` + id + `","role":"tool","toolCallId":"` + call + `","content":"` + text + `"}`)
		default:
			b.WriteString(`{"id":"m-` + id + `","role":"assistant","content":"` + text + `"}`)
		}
	}
	b.WriteString(`]}`)
	if b.Len() > DefaultMaxBodyBytes || b.Len() < 2_500_000 {
		t.Fatalf("the thread is %d bytes", b.Len())
	}
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(b.String()))
	req.Header.Set("Content-Type", "application/json")
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d: %.300s", rec.Code, rec.Body.String())
	}
}

// The limits have defaults, and invalid limits are refused.
func TestHandlerInputLimitDefaults(t *testing.T) {
	h, err := NewHandler[NoState](sayHi())
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(limitBody("tools", DefaultMaxTools+1)))
	req.Header.Set("Content-Type", "application/json")
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("status %d", rec.Code)
	}
	if _, err := NewHandler[NoState](sayHi(), WithInputLimits(InputLimits{Messages: -1})); err == nil {
		t.Fatal("a negative limit was accepted")
	}
}

// An id over the limit is refused with 422 INVALID_INPUT naming its path,
// before any run starts, wherever in the input it is; at the limit it
// runs. The default holds without options: a 4 MiB threadId is refused.
func TestHandlerIDLimit(t *testing.T) {
	h, err := NewHandler[NoState](sayHi(), WithInputLimits(InputLimits{IDBytes: 8}))
	if err != nil {
		t.Fatal(err)
	}
	id, long := strings.Repeat("i", 8), strings.Repeat("i", 9)
	serve := func(h http.Handler, body string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		h.ServeHTTP(rec, req)
		return rec
	}
	input := func(thread, run, parent, msg, sub, callID, toolCallID, interrupt string) string {
		return `{"threadId":"` + thread + `","runId":"` + run + `","parentRunId":"` + parent + `","messages":[` +
			`{"id":"` + msg + `","role":"user","content":"hi","subagentRunId":"` + sub + `"},` +
			`{"id":"a","role":"assistant","toolCalls":[{"id":"` + callID + `","type":"function","function":{"name":"f","arguments":"{}"}}]},` +
			`{"id":"t","role":"tool","toolCallId":"` + toolCallID + `","content":"ok"}],` +
			`"resume":[{"interruptId":"` + interrupt + `","status":"cancelled"}]}`
	}
	if rec := serve(h, input(id, id, id, id, id, id, id, id)); rec.Code != http.StatusOK {
		t.Fatalf("ids at the limit: %d %s", rec.Code, rec.Body.String())
	}
	for field, body := range map[string]string{
		"threadId":                    input(long, id, id, id, id, id, id, id),
		"runId":                       input(id, long, id, id, id, id, id, id),
		"parentRunId":                 input(id, id, long, id, id, id, id, id),
		"messages[0].id":              input(id, id, id, long, id, id, id, id),
		"messages[0].subagentRunId":   input(id, id, id, id, long, id, id, id),
		"messages[1].toolCalls[0].id": input(id, id, id, id, id, long, id, id),
		"messages[2].toolCallId":      input(id, id, id, id, id, id, long, id),
		"resume[0].interruptId":       input(id, id, id, id, id, id, id, long),
	} {
		rec := serve(h, body)
		var e struct{ Code, Field string }
		if rec.Code != http.StatusUnprocessableEntity || json.Unmarshal(rec.Body.Bytes(), &e) != nil ||
			e.Code != string(CodeInvalidInput) || e.Field != field || strings.Contains(rec.Body.String(), "event:") {
			t.Errorf("%s over the limit: %d %s", field, rec.Code, rec.Body.String())
		}
	}
	def, err := NewHandler[NoState](sayHi())
	if err != nil {
		t.Fatal(err)
	}
	huge := strings.Repeat("t", 4<<20)
	if rec := serve(def, `{"threadId":"`+huge+`","runId":"r","messages":[]}`); rec.Code != http.StatusUnprocessableEntity || rec.Body.Len() > 1024 {
		t.Fatalf("a 4 MiB threadId with the default limit: %d, %d-byte body", rec.Code, rec.Body.Len())
	}
	if rec := serve(def, `{"threadId":"`+strings.Repeat("t", DefaultMaxIDBytes)+`","runId":"r","messages":[]}`); rec.Code != http.StatusOK {
		t.Fatalf("a threadId of DefaultMaxIDBytes: %d", rec.Code)
	}
	// Ids become store keys, URL paths and log fields: a control
	// character is refused in any of them.
	for _, bad := range []string{`a\u0000b`, `a\nb`, `a\u007fb`} {
		if rec := serve(def, `{"threadId":"t","runId":"r","messages":[{"id":"`+bad+`","role":"user","content":"hi"}]}`); rec.Code != http.StatusUnprocessableEntity ||
			!strings.Contains(rec.Body.String(), `"messages[0].id"`) {
			t.Errorf("message id %q: %d %s", bad, rec.Code, rec.Body.String())
		}
		if rec := serve(def, `{"threadId":"`+bad+`","runId":"r","messages":[]}`); rec.Code != http.StatusUnprocessableEntity {
			t.Errorf("threadId %q: %d %s", bad, rec.Code, rec.Body.String())
		}
	}
	if rec := serve(def, `{"threadId":"fil-ü-日本","runId":"r","messages":[]}`); rec.Code != http.StatusOK {
		t.Errorf("a threadId in UTF-8: %d %s", rec.Code, rec.Body.String())
	}
	if _, err := NewHandler[NoState](sayHi(), WithInputLimits(InputLimits{IDBytes: -1})); err == nil {
		t.Fatal("a negative id limit was accepted")
	}
}
