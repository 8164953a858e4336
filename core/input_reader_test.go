package core_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// Middleware reads the run input with the route's own options before the
// route's Handler runs it, and refuses a run the handler would take: here,
// one on a thread it does not serve. The handler finds the input on the
// request's context and does not read the body again.
func ExampleInputReader() {
	opts := []core.HandlerOption{core.WithMaxBodyBytes(64 << 10), core.WithStrictInput()}
	ir, err := core.NewInputReader(opts...)
	if err != nil {
		fmt.Println(err)
		return
	}
	h, err := core.NewHandler(core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		return agui.Success(), nil
	}), opts...)
	if err != nil {
		fmt.Println(err)
		return
	}
	threads := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			in, err := ir.Read(w, r)
			if err == nil && !strings.HasPrefix(in.ThreadID, "support-") {
				err = &core.RequestError{Status: http.StatusForbidden, Code: core.CodeForbidden, Message: "not a support thread"}
			}
			if err != nil {
				ir.Refuse(w, r, err) // answered and reported as the handler's refusals
				return
			}
			next.ServeHTTP(w, r.WithContext(core.ContextWithInput(r.Context(), in)))
		})
	}
	srv := httptest.NewServer(threads(h))
	defer srv.Close()

	for _, body := range []string{
		`{"threadId":"support-1","runId":"r1","messages":[]}`,
		`{"threadId":"sales-1","runId":"r2","messages":[]}`,
		`{"threadId":"support-1","runId":"r3","messages":[],"colour":"red"}`,
	} {
		resp, err := http.Post(srv.URL, "application/json", strings.NewReader(body))
		if err != nil {
			fmt.Println(err)
			return
		}
		resp.Body.Close()
		fmt.Println(resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	// Output:
	// 200 text/event-stream
	// 403 application/json
	// 422 application/json
}

// An InputReader refuses every request the Handler built from the same
// options refuses, with the same status and code, writing nothing itself.
func TestInputReaderRefusesAsTheHandler(t *testing.T) {
	t.Parallel()
	opts := []core.HandlerOption{
		core.WithMaxBodyBytes(1024), core.WithStrictInput(), core.WithInputLimits(core.InputLimits{Messages: 1}),
		core.WithHandlerLogger(slog.New(slog.DiscardHandler)),
	}
	ir, err := core.NewInputReader(opts...)
	if err != nil {
		t.Fatal(err)
	}
	h := mustHandler(t, neverAgent(t), opts...)
	for name, tc := range map[string]struct{ method, contentType, body string }{
		"GET":          {http.MethodGet, "application/json", `{}`},
		"text/plain":   {http.MethodPost, "text/plain", `{}`},
		"too large":    {http.MethodPost, "application/json", `{"threadId":"t","runId":"r","forwardedProps":"` + strings.Repeat("x", 2048) + `"}`},
		"malformed":    {http.MethodPost, "application/json", `{"threadId":`},
		"invalid":      {http.MethodPost, "application/json", `{"runId":"r"}`},
		"strict":       {http.MethodPost, "application/json", `{"threadId":"t","runId":"r","colour":"red"}`},
		"over a limit": {http.MethodPost, "application/json", `{"threadId":"t","runId":"r","messages":[{"id":"1","role":"user","content":"a"},{"id":"2","role":"user","content":"b"}]}`},
	} {
		req := func() *http.Request {
			r := httptest.NewRequest(tc.method, "/agent", strings.NewReader(tc.body))
			r.Header.Set("Content-Type", tc.contentType)
			return r
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req())
		read := httptest.NewRecorder()
		_, err := ir.Read(read, req())
		re, ok := err.(*core.RequestError)
		if !ok {
			t.Errorf("%s: Read = %v, want a *RequestError", name, err)
			continue
		}
		if re.Status != rec.Code || !strings.Contains(rec.Body.String(), string(re.Code)) {
			t.Errorf("%s: Read refused %d %s, the handler %d %s", name, re.Status, re.Code, rec.Code, rec.Body)
		}
		if read.Body.Len() != 0 {
			t.Errorf("%s: Read wrote %q", name, read.Body)
		}
	}
}

// NewInputReader checks the whole list, run options included, as
// NewHandler does.
func TestNewInputReaderRejectsBadOptions(t *testing.T) {
	t.Parallel()
	for name, opt := range map[string]core.HandlerOption{
		"body":      core.WithMaxBodyBytes(0),
		"read":      core.WithReadTimeout(-1),
		"limits":    core.WithInputLimits(core.InputLimits{Tools: -1}),
		"principal": core.WithPrincipal(nil),
		"runs":      core.WithMaxConcurrentRuns(-1, 0),
		"queue":     core.WithQueueSize(-1),
		"timeout":   core.WithRunTimeout(-1),
	} {
		if _, err := core.NewInputReader(opt); err == nil {
			t.Errorf("%s: NewInputReader accepted an invalid option", name)
		}
		if _, err := core.NewHandler(sayAgent("x"), opt); err == nil {
			t.Errorf("%s: NewHandler accepted an invalid option", name)
		}
	}
}
