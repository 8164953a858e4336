package loop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// threadsServer serves a's thread API at /agents/x/threads with the
// X-User header as principal ("" : none).
func threadsServer(t *testing.T, a *Agent, opts ...ThreadsOption) *httptest.Server {
	t.Helper()
	hook := func(r *http.Request) (string, error) {
		if u := r.Header.Get("X-User"); u != "" {
			return u, nil
		}
		return "", errors.New("no user")
	}
	withHook, without := ThreadsHandler(a, hook, opts...), ThreadsHandler(a, nil, opts...)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Without X-User the request carries no principal at all.
		if r.Header.Get("X-User") != "" {
			withHook.ServeHTTP(w, r)
			return
		}
		without.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

type reply struct {
	status int
	body   string
}

func (r reply) decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(r.body), v); err != nil {
		t.Fatalf("%d %s: %v", r.status, r.body, err)
	}
}

// code returns the refusal's code, "" for none.
func (r reply) code() string {
	var e struct{ Code, Field string }
	_ = json.Unmarshal([]byte(r.body), &e)
	return e.Code
}

func call(t *testing.T, srv *httptest.Server, method, path, user, body string) reply {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, srv.URL+"/agents/x"+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-User", user)
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return reply{resp.StatusCode, string(b)}
}

// runAs runs one exchange on thread as user.
func runAs(t *testing.T, a *Agent, user, thread, text string) {
	t.Helper()
	if _, err := a.Execute(core.ContextWithPrincipal(t.Context(), user), Input{ThreadID: thread, Messages: []agui.Message{UserText(text)}}); err != nil {
		t.Fatal(err)
	}
}

func TestThreadsList(t *testing.T) {
	a := mustNew(t, Script(Turn{Text: "one"}, Turn{Text: "two"}, Turn{Text: "three"}, Turn{Text: "bob's"}))
	for _, id := range []string{"a1", "a2", "a3"} {
		runAs(t, a, "alice", id, "hi")
	}
	runAs(t, a, "bob", "b1", "secret")
	srv := threadsServer(t, a)
	var page ThreadPage
	r := call(t, srv, http.MethodGet, "/threads?limit=2", "alice", "")
	if r.status != http.StatusOK {
		t.Fatalf("list: %d %s", r.status, r.body)
	}
	r.decode(t, &page)
	if len(page.Threads) != 2 || page.Threads[0].ID != "a3" || page.Threads[1].ID != "a2" || page.Next == "" {
		t.Fatalf("first page: %s", r.body)
	}
	if x := page.Threads[0]; x.Messages != 2 || x.RunActive || x.InterruptPending || x.Created.IsZero() {
		t.Fatalf("a3: %+v, want 2 messages, no run, no interrupt, a creation time", x)
	}
	r = call(t, srv, http.MethodGet, "/threads?limit=2&cursor="+page.Next, "alice", "")
	page = ThreadPage{}
	r.decode(t, &page)
	if len(page.Threads) != 1 || page.Threads[0].ID != "a1" || page.Next != "" {
		t.Fatalf("second page: %s", r.body)
	}
	r = call(t, srv, http.MethodGet, "/threads", "bob", "")
	r.decode(t, &page)
	if len(page.Threads) != 1 || page.Threads[0].ID != "b1" {
		t.Fatalf("bob's threads: %s", r.body)
	}
	r = call(t, srv, http.MethodGet, "/threads", "carol", "")
	if r.status != http.StatusOK || !strings.Contains(r.body, `"threads":[]`) {
		t.Fatalf("carol's (none): %d %s", r.status, r.body)
	}
	// No principal at all: refused, whatever the threads.
	if r = call(t, srv, http.MethodGet, "/threads", "", ""); r.status != http.StatusForbidden || r.code() != "FORBIDDEN" {
		t.Fatalf("list without a principal: %d %s", r.status, r.body)
	}
	for _, q := range []string{"limit=0", "limit=101", "limit=x", "limit=-1", "cursor=nope", "archived=maybe"} {
		r := call(t, srv, http.MethodGet, "/threads?"+q, "alice", "")
		var e struct{ Code, Field string }
		r.decode(t, &e)
		if r.status != http.StatusBadRequest || e.Code != string(CodeBadQuery) || !strings.HasPrefix(q, e.Field+"=") {
			t.Errorf("%s: %d %s, want 400 BAD_QUERY naming the field", q, r.status, r.body)
		}
	}
	if r = call(t, srv, http.MethodPost, "/threads", "alice", "{}"); r.status != http.StatusMethodNotAllowed {
		t.Fatalf("POST to the list: %d %s", r.status, r.body)
	}
}

func TestThreadsRenameArchive(t *testing.T) {
	a := mustNew(t, Script(Turn{Text: "one"}, Turn{Text: "two"}))
	runAs(t, a, "alice", "a1", "hi")
	runAs(t, a, "alice", "a2", "hi")
	srv := threadsServer(t, a)
	r := call(t, srv, http.MethodPatch, "/threads/a1", "alice", `{"title":"Trip to Oslo"}`)
	var sum ThreadSummary
	r.decode(t, &sum)
	if r.status != http.StatusOK || sum.Title != "Trip to Oslo" || sum.ID != "a1" {
		t.Fatalf("rename: %d %s", r.status, r.body)
	}
	// Bob learns nothing, whatever he asks.
	for _, c := range []struct{ method, path, body string }{
		{http.MethodPatch, "/threads/a1", `{"title":"mine"}`},
		{http.MethodDelete, "/threads/a1", ""},
		{http.MethodGet, "/threads/a1", ""},
		{http.MethodGet, "/threads/a1/messages", ""},
		{http.MethodGet, "/threads/a1/state", ""},
	} {
		r := call(t, srv, c.method, c.path, "bob", c.body)
		if r.status != http.StatusForbidden || r.code() != "FORBIDDEN" || strings.Contains(r.body, "Oslo") || strings.Contains(r.body, "alice") {
			t.Errorf("bob %s %s: %d %s, want a bare 403", c.method, c.path, r.status, r.body)
		}
		r = call(t, srv, c.method, strings.Replace(c.path, "a1", "nope", 1), "alice", c.body)
		if r.status != http.StatusNotFound || r.code() != string(CodeThreadNotFound) {
			t.Errorf("alice %s of an unknown thread: %d %s, want 404", c.method, r.status, r.body)
		}
		// An unknown id is not echoed: a URL can carry a megabyte of it.
		huge := strings.Repeat("z", 64<<10)
		r = call(t, srv, c.method, strings.Replace(c.path, "a1", huge, 1), "alice", c.body)
		if r.status != http.StatusNotFound || len(r.body) > 1024 {
			t.Errorf("alice %s of a 64 KiB unknown id: %d, %d bytes of body, want a short 404", c.method, r.status, len(r.body))
		}
	}
	if r = call(t, srv, http.MethodPatch, "/threads/a1", "alice", `{"archived":true}`); r.status != http.StatusOK {
		t.Fatalf("archive: %d %s", r.status, r.body)
	}
	var page ThreadPage
	call(t, srv, http.MethodGet, "/threads", "alice", "").decode(t, &page)
	if len(page.Threads) != 1 || page.Threads[0].ID != "a2" {
		t.Fatalf("threads after archiving a1: %+v", page)
	}
	call(t, srv, http.MethodGet, "/threads?archived=true", "alice", "").decode(t, &page)
	if len(page.Threads) != 1 || page.Threads[0].ID != "a1" || page.Threads[0].Title != "Trip to Oslo" || !page.Threads[0].Archived {
		t.Fatalf("archived threads: %+v", page)
	}
	for _, c := range []struct {
		body   string
		status int
	}{
		{`{"title":` + fmt.Sprintf("%q", strings.Repeat("x", MaxTitle+1)) + `}`, http.StatusUnprocessableEntity},
		{`{"title":"Oslo\u0000"}`, http.StatusUnprocessableEntity},
		{`{"title":"Oslo\nBergen"}`, http.StatusUnprocessableEntity},
		{`{"title":`, http.StatusBadRequest},
		{`{"title":"Oslo"}{"archived":true}`, http.StatusBadRequest},
		{`{"color":"red"}`, http.StatusBadRequest},
		{`[]`, http.StatusBadRequest},
	} {
		if r := call(t, srv, http.MethodPatch, "/threads/a1", "alice", c.body); r.status != c.status {
			t.Errorf("PATCH %.40s: %d %s, want %d", c.body, r.status, r.body, c.status)
		}
	}
}

func TestThreadsDelete(t *testing.T) {
	a := mustNew(t, Script(Turn{Text: "one"}))
	runAs(t, a, "alice", "a1", "hi")
	var cleaned []string
	fail := true
	srv := threadsServer(t, a, WithThreadCleanup(func(ctx context.Context, thread, principal string) error {
		if fail {
			fail = false
			return errors.New("log down")
		}
		cleaned = append(cleaned, thread+"/"+principal)
		return nil
	}))
	// A failing cleanup keeps the thread, to be deleted again.
	if r := call(t, srv, http.MethodDelete, "/threads/a1", "alice", ""); r.status != http.StatusServiceUnavailable || strings.Contains(r.body, "log down") {
		t.Fatalf("delete with a failing cleanup: %d %s", r.status, r.body)
	}
	if r := call(t, srv, http.MethodGet, "/threads/a1", "alice", ""); r.status != http.StatusOK {
		t.Fatalf("the thread after a failed delete: %d %s", r.status, r.body)
	}
	if r := call(t, srv, http.MethodDelete, "/threads/a1", "alice", ""); r.status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.status, r.body)
	}
	if !slices.Equal(cleaned, []string{"a1/alice"}) {
		t.Fatalf("cleanups ran for %v, want [a1/alice]", cleaned)
	}
	if r := call(t, srv, http.MethodGet, "/threads/a1", "alice", ""); r.status != http.StatusNotFound {
		t.Fatalf("the thread after delete: %d %s", r.status, r.body)
	}
	if r := call(t, srv, http.MethodGet, "/threads", "alice", ""); !strings.Contains(r.body, `"threads":[]`) {
		t.Fatalf("the list after delete: %s", r.body)
	}
}

func TestThreadsMessagesAndState(t *testing.T) {
	store := NewMemoryStore()
	a := mustNew(t, Script(), WithCheckpoints(store))
	cp := &Checkpoint{ThreadID: "long", Owner: "alice", Status: StatusIdle, State: json.RawMessage(`{"n":1}`)}
	for i := range 10 {
		cp.Messages = append(cp.Messages, &agui.UserMessage{ID: fmt.Sprint("m", i), Content: agui.TextContent("x")})
	}
	if _, err := store.Save(t.Context(), cp, 0, 0); err != nil {
		t.Fatal(err)
	}
	srv := threadsServer(t, a)
	page := func(q string) (ids []string, before, after bool) {
		t.Helper()
		r := call(t, srv, http.MethodGet, "/threads/long/messages"+q, "alice", "")
		var p struct {
			ThreadID                    string
			Messages                    []struct{ ID string }
			HasMoreBefore, HasMoreAfter bool
		}
		r.decode(t, &p)
		if r.status != http.StatusOK || p.ThreadID != "long" {
			t.Fatalf("%s: %d %s", q, r.status, r.body)
		}
		for _, m := range p.Messages {
			ids = append(ids, m.ID)
		}
		return ids, p.HasMoreBefore, p.HasMoreAfter
	}
	for _, c := range []struct {
		q             string
		want          []string
		before, after bool
	}{
		{"?limit=3", []string{"m7", "m8", "m9"}, true, false},
		{"?limit=3&before=m7", []string{"m4", "m5", "m6"}, true, true},
		{"?limit=3&before=m2", []string{"m0", "m1"}, false, true},
		{"?limit=3&after=m1", []string{"m2", "m3", "m4"}, true, true},
		{"?after=m7", []string{"m8", "m9"}, true, false},
		{"?after=m9", nil, true, false},
		{"", []string{"m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9"}, false, false},
	} {
		ids, before, after := page(c.q)
		if !slices.Equal(ids, c.want) || before != c.before || after != c.after {
			t.Errorf("%s: %v before %v after %v, want %v %v %v", c.q, ids, before, after, c.want, c.before, c.after)
		}
	}
	for _, q := range []string{"?before=zz", "?after=zz", "?before=m1&after=m2", "?limit=0", "?limit=201"} {
		if r := call(t, srv, http.MethodGet, "/threads/long/messages"+q, "alice", ""); r.status != http.StatusBadRequest || r.code() != string(CodeBadQuery) {
			t.Errorf("%s: %d %s, want 400 BAD_QUERY", q, r.status, r.body)
		}
	}
	if r := call(t, srv, http.MethodGet, "/threads/long/state", "alice", ""); r.status != http.StatusOK || r.body != `{"threadId":"long","state":{"n":1}}`+"\n" {
		t.Fatalf("state: %d %s", r.status, r.body)
	}
	if r := call(t, srv, http.MethodPost, "/threads/long/state", "alice", "{}"); r.status != http.StatusMethodNotAllowed {
		t.Fatalf("POST state: %d %s", r.status, r.body)
	}
	if r := call(t, srv, http.MethodGet, "/threads/long/other", "alice", ""); r.status != http.StatusNotFound {
		t.Fatalf("an unknown route below a thread: %d %s", r.status, r.body)
	}
}

// plainStore is a Store and nothing more.
type plainStore struct{ Store }

func TestThreadsWithoutThreadStore(t *testing.T) {
	a, err := New(Script(Turn{Text: "one"}), WithCheckpoints(plainStore{NewMemoryStore()}))
	if err != nil {
		t.Fatal(err)
	}
	runAs(t, a, "alice", "a1", "hi")
	srv := threadsServer(t, a)
	for _, c := range []struct{ method, path, body string }{
		{http.MethodGet, "/threads", ""},
		{http.MethodPatch, "/threads/a1", `{"title":"x"}`},
	} {
		if r := call(t, srv, c.method, c.path, "alice", c.body); r.status != http.StatusNotImplemented || r.code() != string(CodeThreadListUnsupported) {
			t.Errorf("%s %s: %d %s, want 501", c.method, c.path, r.status, r.body)
		}
	}
	// Reading and deleting need only a Store.
	if r := call(t, srv, http.MethodGet, "/threads/a1/messages", "alice", ""); r.status != http.StatusOK {
		t.Fatalf("messages: %d %s", r.status, r.body)
	}
	if r := call(t, srv, http.MethodDelete, "/threads/a1", "alice", ""); r.status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.status, r.body)
	}
}

func TestThreadPath(t *testing.T) {
	for _, c := range []struct {
		path, id, sub string
		ok            bool
	}{
		{"/agents/x/threads", "", "", true},
		{"/agents/x/threads/", "", "", true},
		{"/agents/x/threads/t%201", "t 1", "", true},
		{"/agents/x/threads/t1/messages", "t1", "messages", true},
		{"/agents/x/threads/t1/state", "t1", "state", true},
		{"/agents/x/threads/messages", "messages", "", true},
		{"/agents/x/threads/threads/state", "threads", "state", true},
		{"/agents/x/threads/a%2Fb", "a/b", "", true},
		{"/agents/x/threads/t1/other", "", "", false},
		{"/agents/x", "", "", false},
	} {
		id, sub, ok := threadPath(c.path)
		if id != c.id || sub != c.sub || ok != c.ok {
			t.Errorf("%s: %q %q %v, want %q %q %v", c.path, id, sub, ok, c.id, c.sub, c.ok)
		}
	}
}
