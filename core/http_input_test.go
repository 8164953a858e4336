package core_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// neverAgent fails the test if a refused request reaches it.
func neverAgent(t *testing.T) core.Agent[core.NoState] {
	return core.AgentFunc[core.NoState](func(context.Context, *core.RunContext[core.NoState]) (agui.Outcome, error) {
		t.Error("the agent ran for a refused request")
		return agui.Success(), nil
	})
}

func TestHandlerRefusesBeforeTheStream(t *testing.T) {
	t.Parallel()
	valid := `{"threadId":"t","runId":"r","protocolVersion":"1.0","messages":[]}`
	tests := []struct {
		name        string
		method      string
		contentType string
		body        string
		status      int
		code        agui.Code
		field       string
	}{
		{"GET", http.MethodGet, "application/json", valid, 405, core.CodeMethodNotAllowed, ""},
		{"PUT", http.MethodPut, "application/json", valid, 405, core.CodeMethodNotAllowed, ""},
		{"no content type", http.MethodPost, "", valid, 415, core.CodeUnsupportedMediaType, ""},
		{"text/plain", http.MethodPost, "text/plain", valid, 415, core.CodeUnsupportedMediaType, ""},
		{"too large", http.MethodPost, "application/json", `{"threadId":"t","runId":"r","forwardedProps":"` + strings.Repeat("x", 2048) + `"}`, 413, core.CodeBodyTooLarge, ""},
		{"malformed", http.MethodPost, "application/json", `{"threadId":`, 400, core.CodeMalformedInput, ""},
		{"not an object", http.MethodPost, "application/json", `[1,2]`, 400, core.CodeMalformedInput, ""},
		{"missing threadId", http.MethodPost, "application/json", `{"runId":"r"}`, 422, core.CodeInvalidInput, "threadId"},
		{"missing runId", http.MethodPost, "application/json", `{"threadId":"t"}`, 422, core.CodeInvalidInput, "runId"},
		{"unknown role", http.MethodPost, "application/json", `{"threadId":"t","runId":"r","messages":[{"id":"1","role":"robot","content":"hi"}]}`, 422, core.CodeInvalidInput, "role"},
		{"other major", http.MethodPost, "application/json", `{"threadId":"t","runId":"r","protocolVersion":"2.0"}`, 422, core.CodeInvalidInput, "protocolVersion"},
	}
	h, err := core.NewHandler(neverAgent(t), core.WithMaxBodyBytes(1024))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			req := httptest.NewRequest(tc.method, "/agent", strings.NewReader(tc.body))
			if tc.contentType != "" {
				req.Header.Set("Content-Type", tc.contentType)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tc.status {
				t.Fatalf("status = %d, want %d; body %s", rec.Code, tc.status, rec.Body)
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type = %q, want application/json", ct)
			}
			var body struct {
				Error string `json:"error"`
				Code  string `json:"code"`
				Field string `json:"field"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
				t.Fatalf("body %q is not JSON: %v", rec.Body, err)
			}
			if body.Code != string(tc.code) || body.Error == "" {
				t.Errorf("body = %+v, want code %s and a message", body, tc.code)
			}
			if !strings.Contains(body.Field, tc.field) || (tc.field == "" && body.Field != "") {
				t.Errorf("field = %q, want it to name %q", body.Field, tc.field)
			}
			if tc.status == 405 && rec.Header().Get("Allow") != http.MethodPost {
				t.Errorf("Allow = %q, want POST", rec.Header().Get("Allow"))
			}
		})
	}
}

func TestReadInputAcceptsCharset(t *testing.T) {
	t.Parallel()
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{"threadId":"t","runId":"r","messages":[]}`))
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	ir, err := core.NewInputReader()
	if err != nil {
		t.Fatal(err)
	}
	in, err := ir.Read(httptest.NewRecorder(), req)
	if err != nil {
		t.Fatal(err)
	}
	if in.ThreadID != "t" || in.RunID != "r" || in.ProtocolVersion != "" {
		t.Errorf("input = %+v", in)
	}
}

func TestInputFromContext(t *testing.T) {
	t.Parallel()
	if _, ok := core.InputFrom(context.Background()); ok {
		t.Error("InputFrom found an input on an empty context")
	}
	in := agui.NewInput("t", "r")
	got, ok := core.InputFrom(core.ContextWithInput(context.Background(), in))
	if !ok || got != in {
		t.Errorf("InputFrom = %v, %v; want the input put there", got, ok)
	}
}
