package main

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
)

// The bearer scheme is matched case-insensitively (RFC 9110 §11.1); the
// token is not.
func TestBearerSchemeCaseInsensitive(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	for _, h := range []string{"Bearer demo", "bearer demo", "BEARER demo"} {
		if evs := stream(t, srv.URL+"/agents/private/echo", input("hi", ""), "Authorization", h); text(evs) != "hi" {
			t.Errorf("%q: text %q", h, text(evs))
		}
	}
	resp := do(t, srv.URL+"/agents/private/echo", input("hi", ""), "Authorization", "Bearer DEMO")
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("wrong token: %d", resp.StatusCode)
	}
}

// The agent list shows only the routes the caller may use.
func TestAgentListHidesPrivateRoutes(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	list := func(auth string) []string {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/agents", nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body struct{ Routes []string }
		if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
			t.Fatal(err)
		}
		return body.Routes
	}
	if anon := list(""); slices.Contains(anon, "/agents/private/echo") || !slices.Contains(anon, "/agents/echo") {
		t.Errorf("anonymous list %v", anon)
	}
	if user := list("Bearer demo"); !slices.Contains(user, "/agents/private/echo") {
		t.Errorf("demo user's list %v", user)
	}
}

// The loop route binds each thread to its creator: anonymous callers (one
// principal, so the curl lines of docs/example-app.md work) and the demo
// token's user cannot use each other's threads; a foreign caller gets a JSON 403
// before any stream.
func TestLoopThreadOwnership(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	body := func(thread string) string {
		return `{"threadId":"` + thread + `","runId":"r","messages":[{"id":"u1","role":"user","content":"trip"}]}`
	}
	evs := stream(t, srv.URL+"/agents/loop", body("anon-thread"))
	if fin := finished(t, evs); fin.Outcome == nil || fin.Outcome.Type != agui.OutcomeInterrupt {
		t.Fatalf("anonymous run: %v", aguitest.Types(evs))
	}
	evs = stream(t, srv.URL+"/agents/loop", body("user-thread"), "Authorization", "Bearer demo")
	finished(t, evs)
	for _, c := range []struct{ thread, auth string }{{"anon-thread", "Bearer demo"}, {"user-thread", ""}} {
		var header []string
		if c.auth != "" {
			header = []string{"Authorization", c.auth}
		}
		resp := do(t, srv.URL+"/agents/loop", body(c.thread), header...)
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var e struct{ Code string }
		if resp.StatusCode != http.StatusForbidden || resp.Header.Get("Content-Type") != "application/json" || json.Unmarshal(raw, &e) != nil || e.Code != "FORBIDDEN" {
			t.Errorf("%s as %q: %d %s", c.thread, c.auth, resp.StatusCode, raw)
		}
	}
	resp := do(t, srv.URL+"/agents/loop", body("x"), "Authorization", "Bearer wrong")
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a wrong token on the loop route: %d, want 401", resp.StatusCode)
	}
}
