package core

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
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
				var e struct{ Code, Field string }
				if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Code != CodeInputTooLarge || e.Field != kind {
					t.Fatalf("%d %s: body %s", n, kind, rec.Body.String())
				}
			}
		}
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
