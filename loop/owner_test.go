package loop

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// A thread belongs to the principal whose run created it: another
// principal's run or resume on it fails with FORBIDDEN before
// anything runs, and the error names nothing of the thread.
func TestThreadOwnership(t *testing.T) {
	b := newBlocker()
	for _, id := range []string{"c1", "c2", "c3", "c4"} {
		b.release(id)
	}
	a, p := approvalAgent(t, b)
	alice := core.ContextWithPrincipal(t.Context(), "alice")
	bob := core.ContextWithPrincipal(t.Context(), "bob")
	res, err := a.Execute(alice, Input{ThreadID: "trip", Messages: []agui.Message{UserText("go")}})
	if err != nil || res.Interrupt == nil {
		t.Fatalf("alice's run: %v %v", res.FinishReason, err)
	}
	calls := p.Calls()
	for name, in := range map[string]Input{
		"run":    {ThreadID: "trip", Messages: []agui.Message{UserText("hi")}},
		"resume": {ThreadID: "trip", Resume: approve(res.Interrupt, true)},
	} {
		_, err := a.Execute(bob, in)
		if agui.CodeOf(err) != core.CodeForbidden || strings.Contains(agui.ErrorText(err), res.Interrupt.ID) {
			t.Fatalf("bob's %s: %v (code %s), want %s", name, err, agui.CodeOf(err), core.CodeForbidden)
		}
	}
	if p.Calls() != calls {
		t.Fatal("a foreign run reached the model")
	}
	if err := a.CheckOwner(t.Context(), "trip", "bob"); agui.CodeOf(err) != core.CodeForbidden {
		t.Fatalf("CheckOwner(bob) = %v", err)
	}
	for who, thread := range map[string]string{"alice": "trip", "bob": "new-thread"} {
		if err := a.CheckOwner(t.Context(), thread, who); err != nil {
			t.Fatalf("CheckOwner(%s, %s) = %v", who, thread, err)
		}
	}
	res2, err := a.Execute(alice, Input{ThreadID: "trip", Resume: approve(res.Interrupt, true)})
	if err != nil || res2.FinishReason != FinishStop {
		t.Fatalf("alice's resume: %v %v", res2.FinishReason, err)
	}
}

// OwnerGuard answers a foreign principal with a JSON 403 before any
// stream, a failing principal function with a JSON 401, and lets the owner
// through to the run.
func TestOwnerGuardHTTP(t *testing.T) {
	a := mustNew(t, Script(Turn{Text: "hi"}, Turn{Text: "again"}))
	h, err := core.NewHandler[core.NoState](a)
	if err != nil {
		t.Fatal(err)
	}
	principal := func(r *http.Request) (string, error) {
		switch u := r.Header.Get("X-User"); u {
		case "":
			return "", errors.New("who are you")
		default:
			return u, nil
		}
	}
	srv := httptest.NewServer(a.OwnerGuard(principal, h))
	defer srv.Close()
	post := func(user string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(`{"threadId":"t1","runId":"r","messages":[{"id":"m","role":"user","content":"hi"}]}`))
		req.Header.Set("Content-Type", "application/json")
		if user != "" {
			req.Header.Set("X-User", user)
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	resp := post("alice")
	body := readAll(t, resp)
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, "RUN_FINISHED") {
		t.Fatalf("alice: %d %s", resp.StatusCode, body)
	}
	for user, want := range map[string]int{"bob": http.StatusForbidden, "": http.StatusUnauthorized} {
		resp := post(user)
		body := readAll(t, resp)
		var e struct{ Code string }
		if resp.StatusCode != want || resp.Header.Get("Content-Type") != "application/json" || json.Unmarshal([]byte(body), &e) != nil || e.Code == "" {
			t.Fatalf("%q: %d %s %s, want %d JSON", user, resp.StatusCode, resp.Header.Get("Content-Type"), body, want)
		}
	}
}

func readAll(t *testing.T, resp *http.Response) string {
	t.Helper()
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			return b.String()
		}
	}
}

var _ = context.Background

// TestOwnerGuardHistoryRead: behind OwnerGuard, reading a thread's history
// is checked like a run: the owner reads it, another principal gets a JSON
// 403 that shows none of the thread.
func TestOwnerGuardHistoryRead(t *testing.T) {
	a := mustNew(t, Script(Turn{Text: "a secret answer"}))
	if _, err := a.Execute(core.ContextWithPrincipal(t.Context(), "alice"), Input{ThreadID: "t1", Messages: []agui.Message{UserText("hi")}}); err != nil {
		t.Fatal(err)
	}
	principal := func(r *http.Request) (string, error) { return r.Header.Get("X-User"), nil }
	srv := httptest.NewServer(a.OwnerGuard(principal, ThreadsHandler(a, nil)))
	defer srv.Close()
	get := func(user string) (int, string) {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/threads/t1", nil)
		req.Header.Set("X-User", user)
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, readAll(t, resp)
	}
	if code, body := get("alice"); code != http.StatusOK || !strings.Contains(body, "a secret answer") {
		t.Fatalf("alice: %d %s", code, body)
	}
	if code, body := get("bob"); code != http.StatusForbidden || strings.Contains(body, "secret") || !strings.Contains(body, `"code":"FORBIDDEN"`) {
		t.Fatalf("bob: %d %s", code, body)
	}
}

// TestHistoryHandlerFailsClosed: a history read of an owned thread is
// refused when the request has no principal (no hook on the route) or its
// hook fails (401 on GET, as on POST), never served unchecked; an unowned
// thread stays readable without a principal.
func TestHistoryHandlerFailsClosed(t *testing.T) {
	a := mustNew(t, Script(Turn{Text: "a secret answer"}, Turn{Text: "public"}))
	if _, err := a.Execute(core.ContextWithPrincipal(t.Context(), "alice"), Input{ThreadID: "t1", Messages: []agui.Message{UserText("hi")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Execute(t.Context(), Input{ThreadID: "open", Messages: []agui.Message{UserText("hi")}}); err != nil {
		t.Fatal(err)
	}
	hook := func(r *http.Request) (string, error) {
		if u := r.Header.Get("X-User"); u != "wrong" {
			return u, nil
		}
		return "", errors.New("unknown credentials")
	}
	for _, c := range []struct {
		name   string
		h      http.Handler
		thread string
		user   string
		want   int
	}{
		{"no hook", ThreadsHandler(a, nil), "t1", "", http.StatusForbidden},
		{"no hook, unowned thread", ThreadsHandler(a, nil), "open", "", http.StatusOK},
		{"hook fails", ThreadsHandler(a, hook), "t1", "wrong", http.StatusUnauthorized},
		{"guard's hook fails", a.OwnerGuard(hook, ThreadsHandler(a, nil)), "t1", "wrong", http.StatusUnauthorized},
		{"owner", ThreadsHandler(a, hook), "t1", "alice", http.StatusOK},
	} {
		srv := httptest.NewServer(c.h)
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/threads/"+c.thread, nil)
		req.Header.Set("X-User", c.user)
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body := readAll(t, resp)
		srv.Close()
		if resp.StatusCode != c.want || (c.want != http.StatusOK && strings.Contains(body, "secret")) {
			t.Errorf("%s: %d %s, want %d", c.name, resp.StatusCode, body, c.want)
		}
	}
}
