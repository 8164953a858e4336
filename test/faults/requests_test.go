package faults_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
)

// TestBadRequests is the table of requests refused before any stream:
// each gets its status and a JSON body {"error","code","field"}, and the
// agent never runs.
func TestBadRequests(t *testing.T) {
	const limit = 4 << 10
	ran := make(chan string, 100)
	agent := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		ran <- rc.Input().RunID
		return agui.Success(), nil
	})
	r := gin.New()
	if err := ginagui.Register(r, "/agent", agent, quiet(core.WithMaxBodyBytes(limit))...); err != nil {
		t.Fatal(err)
	}
	if err := ginagui.Register(r, "/default-limit", agent, quiet()...); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(r)
	defer srv.Close()
	client := srv.Client()
	defer client.CloseIdleConnections()

	valid := string(runBody("r1"))
	msg := func(m string) string {
		return `{"threadId":"t","runId":"r","messages":[` + m + `]}`
	}
	cases := []struct {
		name        string
		method      string
		path        string
		contentType string
		body        string
		status      int
		code        agui.Code
		field       string
	}{
		// Method and media type.
		{"GET", http.MethodGet, "/agent", "application/json", "", 405, core.CodeMethodNotAllowed, ""},
		{"PUT", http.MethodPut, "/agent", "application/json", valid, 405, core.CodeMethodNotAllowed, ""},
		{"DELETE", http.MethodDelete, "/agent", "", "", 405, core.CodeMethodNotAllowed, ""},
		{"no content type", "", "", "", valid, 415, core.CodeUnsupportedMediaType, ""},
		{"text/plain", "", "", "text/plain", valid, 415, core.CodeUnsupportedMediaType, ""},
		{"form", "", "", "application/x-www-form-urlencoded", "threadId=t", 415, core.CodeUnsupportedMediaType, ""},
		{"json with charset", "", "", "application/json; charset=utf-8", valid, 200, "", ""},
		// Size.
		{"over the route's limit", "", "", "", `{"threadId":"t","runId":"r","messages":[],"state":{"pad":"` + strings.Repeat("x", limit) + `"}}`, 413, core.CodeBodyTooLarge, ""},
		{"over the 8 MiB default", "", "/default-limit", "", `{"threadId":"t","runId":"r","messages":[],"state":{"pad":"` + strings.Repeat("x", core.DefaultMaxBodyBytes) + `"}}`, 413, core.CodeBodyTooLarge, ""},
		// Malformed and truncated.
		{"empty body", "", "", "", "", 400, core.CodeMalformedInput, ""},
		{"not JSON", "", "", "", "hello", 400, core.CodeMalformedInput, ""},
		{"truncated object", "", "", "", `{"threadId":"t","runId"`, 400, core.CodeMalformedInput, ""},
		{"truncated string", "", "", "", `{"threadId":"t`, 400, core.CodeMalformedInput, ""},
		{"truncated valid body", "", "", "", valid[:len(valid)/2], 400, core.CodeMalformedInput, ""},
		{"array", "", "", "", `[]`, 400, core.CodeMalformedInput, ""},
		{"null", "", "", "", `null`, 400, core.CodeMalformedInput, ""},
		{"trailing garbage", "", "", "", valid + "x", 400, core.CodeMalformedInput, ""},
		// Invalid UTF-8 in a string is replaced by U+FFFD, as encoding/json
		// does; the stream that echoes it stays valid UTF-8.
		{"invalid UTF-8", "", "", "", "{\"threadId\":\"\xff\",\"runId\":\"r\",\"messages\":[]}", 200, "", ""},
		// Missing and wrongly typed fields.
		{"missing threadId", "", "", "", `{"runId":"r","messages":[]}`, 422, core.CodeInvalidInput, "threadId"},
		{"missing runId", "", "", "", `{"threadId":"t","messages":[]}`, 422, core.CodeInvalidInput, "runId"},
		{"threadId a number", "", "", "", `{"threadId":5,"runId":"r","messages":[]}`, 422, core.CodeInvalidInput, "threadId"},
		{"messages an object", "", "", "", `{"threadId":"t","runId":"r","messages":{}}`, 422, core.CodeInvalidInput, "messages"},
		{"tools a string", "", "", "", `{"threadId":"t","runId":"r","messages":[],"tools":"x"}`, 422, core.CodeInvalidInput, "tools"},
		{"unknown role", "", "", "", msg(`{"id":"m","role":"wizard","content":"x"}`), 422, core.CodeInvalidInput, "messages[0].role"},
		{"message without id", "", "", "", msg(`{"role":"user","content":"x"}`), 422, core.CodeInvalidInput, "messages[0].id"},
		{"user content a number", "", "", "", msg(`{"id":"m","role":"user","content":7}`), 422, core.CodeInvalidInput, "messages[0].content"},
		{"unknown part type", "", "", "", msg(`{"id":"m","role":"user","content":[{"type":"hologram"}]}`), 422, core.CodeInvalidInput, "messages[0].content[0].type"},
		{"protocol 2.0", "", "", "", `{"threadId":"t","runId":"r","messages":[],"protocolVersion":"2.0"}`, 422, core.CodeInvalidInput, "protocolVersion"},
		{"resume bad status", "", "", "", `{"threadId":"t","runId":"r","messages":[],"resume":[{"interruptId":"i","status":"denied"}]}`, 422, core.CodeInvalidInput, "resume[0].status"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			method := tc.method
			if method == "" {
				method = http.MethodPost
			}
			path := tc.path
			if path == "" {
				path = "/agent"
			}
			req, err := http.NewRequestWithContext(t.Context(), method, srv.URL+path, bytes.NewReader([]byte(tc.body)))
			if err != nil {
				t.Fatal(err)
			}
			if tc.contentType != "" {
				req.Header.Set("Content-Type", tc.contentType)
			} else if tc.name != "no content type" {
				req.Header.Set("Content-Type", "application/json")
			}
			res, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			body, err := io.ReadAll(res.Body)
			if err != nil {
				t.Fatal(err)
			}
			if res.StatusCode != tc.status {
				t.Fatalf("status %d, want %d; body %s", res.StatusCode, tc.status, body)
			}
			if tc.status == 200 {
				if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
					t.Fatalf("Content-Type %q", ct)
				}
				if !utf8.Valid(body) {
					t.Errorf("the stream is not valid UTF-8: %q", body)
				}
				<-ran
				return
			}
			if ct := res.Header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q, want application/json", ct)
			}
			var got struct {
				Error string  `json:"error"`
				Code  string  `json:"code"`
				Field *string `json:"field"`
			}
			if err := json.Unmarshal(body, &got); err != nil {
				t.Fatalf("body %q is not the JSON error shape: %v", body, err)
			}
			if got.Code != string(tc.code) || got.Error == "" {
				t.Errorf("body %s: want code %s and a message", body, tc.code)
			}
			field := ""
			if got.Field != nil {
				field = *got.Field
			}
			if field != tc.field {
				t.Errorf("field %q, want %q (body %s)", field, tc.field, body)
			}
		})
	}
	select {
	case id := <-ran:
		t.Errorf("the agent ran for a refused request (run %s)", id)
	default:
	}
}

// TestMethodNotAllowed mounts the handler for every method, as a user of
// ginagui.Handler with r.Any may, to see the transport's own 405.
func TestMethodNotAllowed(t *testing.T) {
	agent := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		return agui.Success(), nil
	})
	r := gin.New()
	r.Any("/agent", ginagui.Handler(agent, quiet()...))
	srv := httptest.NewServer(r)
	defer srv.Close()
	client := srv.Client()
	defer client.CloseIdleConnections()
	for _, method := range []string{http.MethodGet, http.MethodPut, http.MethodDelete} {
		req, err := http.NewRequestWithContext(t.Context(), method, srv.URL+"/agent", nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusMethodNotAllowed || res.Header.Get("Allow") != http.MethodPost ||
			!strings.Contains(string(body), `"code":"`+string(core.CodeMethodNotAllowed)+`"`) {
			t.Errorf("%s: %d Allow=%q %s", method, res.StatusCode, res.Header.Get("Allow"), body)
		}
	}
}
