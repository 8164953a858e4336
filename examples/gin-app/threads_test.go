package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/internal/pgtest"
	"github.com/agui-go/agui/internal/redistest"
	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/resume"
)

// send requests url with method and body and the given header pairs,
// and returns the status and body.
func send(t *testing.T, method, url, body string, header ...string) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestThreadAPI: the loop route's thread API through Gin: alice lists her
// threads newest first, renames, archives and deletes one, pages its
// messages and reads its state; bob sees none of it.
func TestThreadAPI(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	alice := []string{"Authorization", "Bearer alice-token"}
	bob := []string{"Authorization", "Bearer bob-token"}
	base := srv.URL + "/agents/loop/threads"
	for _, id := range []string{"ta1", "ta2"} {
		finished(t, stream(t, srv.URL+"/agents/loop",
			`{"threadId":"`+id+`","runId":"r","messages":[{"id":"u-`+id+`","role":"user","content":"hi"}]}`, alice...))
	}
	list := func(q string, h ...string) []string {
		t.Helper()
		code, body := send(t, http.MethodGet, base+q, "", h...)
		var page struct {
			Threads []struct {
				ID, Title string
				Archived  bool
			}
		}
		if err := json.Unmarshal([]byte(body), &page); err != nil || code != http.StatusOK {
			t.Fatalf("list %s: %d %s %v", q, code, body, err)
		}
		var ids []string
		for _, x := range page.Threads {
			ids = append(ids, x.ID+":"+x.Title)
		}
		return ids
	}
	if got := strings.Join(list("", alice...), ","); got != "ta2:,ta1:" {
		t.Fatalf("alice's threads: %s", got)
	}
	if got := list("", bob...); len(got) != 0 {
		t.Fatalf("bob's threads: %v", got)
	}
	if code, body := send(t, http.MethodPatch, base+"/ta1", `{"title":"Oslo"}`, bob...); code != http.StatusForbidden || strings.Contains(body, "Oslo") {
		t.Fatalf("bob renames alice's thread: %d %s", code, body)
	}
	if code, body := send(t, http.MethodPatch, base+"/ta1", `{"title":"Oslo"}`, alice...); code != http.StatusOK || !strings.Contains(body, `"title":"Oslo"`) {
		t.Fatalf("alice renames: %d %s", code, body)
	}
	if code, body := send(t, http.MethodPatch, base+"/ta2", `{"archived":true}`, alice...); code != http.StatusOK {
		t.Fatalf("alice archives: %d %s", code, body)
	}
	if got := strings.Join(list("", alice...), ","); got != "ta1:Oslo" {
		t.Fatalf("alice's threads after archiving ta2: %s", got)
	}
	if got := strings.Join(list("?archived=true", alice...), ","); got != "ta2:" {
		t.Fatalf("alice's archived threads: %s", got)
	}
	if code, body := send(t, http.MethodGet, base+"/ta1/messages?limit=1", "", alice...); code != http.StatusOK ||
		!strings.Contains(body, `"hasMoreBefore":true`) || strings.Contains(body, "u-ta1") {
		t.Fatalf("alice's newest message of ta1: %d %s", code, body)
	}
	if code, body := send(t, http.MethodGet, base+"/ta1/state", "", alice...); code != http.StatusOK || !strings.Contains(body, `"threadId":"ta1"`) {
		t.Fatalf("ta1's state: %d %s", code, body)
	}
	if code, body := send(t, http.MethodGet, base+"?limit=500", "", alice...); code != http.StatusBadRequest || !strings.Contains(body, `"BAD_QUERY"`) {
		t.Fatalf("a limit over the maximum: %d %s", code, body)
	}
	if code, body := send(t, http.MethodDelete, base+"/ta1", "", bob...); code != http.StatusForbidden {
		t.Fatalf("bob deletes alice's thread: %d %s", code, body)
	}
	if code, body := send(t, http.MethodDelete, base+"/ta1", "", alice...); code != http.StatusNoContent {
		t.Fatalf("alice deletes: %d %s", code, body)
	}
	if code, _ := send(t, http.MethodGet, base+"/ta1", "", alice...); code != http.StatusNotFound {
		t.Fatalf("a deleted thread: %d", code)
	}
	if got := list("", alice...); len(got) != 0 {
		t.Fatalf("alice's threads after the delete: %v", got)
	}
}

// TestOpenAPIPathsServed: every path and method of
// docs/threads.openapi.yaml is served by the loop route (a 2xx on one of
// alice's threads), read with a line scanner: the paths are the keys
// indented two spaces under "paths:", the methods four.
func TestOpenAPIPathsServed(t *testing.T) {
	t.Parallel()
	spec, err := os.ReadFile("../../docs/threads.openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	type op struct{ method, path string }
	var ops []op
	var path string
	inPaths := false
	for _, line := range strings.Split(string(spec), "\n") {
		switch {
		case line == "paths:":
			inPaths = true
		case inPaths && line != "" && !strings.HasPrefix(line, " "):
			inPaths = false
		case inPaths && strings.HasPrefix(line, "  /") && strings.HasSuffix(line, ":"):
			path = strings.TrimSuffix(strings.TrimSpace(line), ":")
		case inPaths && path != "" && strings.HasPrefix(line, "    ") && !strings.HasPrefix(line, "     "):
			switch m := strings.TrimSuffix(strings.TrimSpace(line), ":"); m {
			case "get", "put", "post", "patch", "delete":
				ops = append(ops, op{strings.ToUpper(m), path})
			}
		}
	}
	if len(ops) < 6 {
		t.Fatalf("found %d operations in the spec: %v", len(ops), ops)
	}
	// The delete goes last: it takes the thread the others read.
	slices.SortStableFunc(ops, func(a, b op) int {
		return cmp.Compare(boolInt(a.method == http.MethodDelete), boolInt(b.method == http.MethodDelete))
	})
	srv := newTestServer(t)
	alice := []string{"Authorization", "Bearer alice-token"}
	finished(t, stream(t, srv.URL+"/agents/loop",
		`{"threadId":"spec","runId":"r","messages":[{"id":"u1","role":"user","content":"hi"}]}`, alice...))
	for _, o := range ops {
		body := ""
		if o.method == http.MethodPatch {
			body = `{"title":"spec"}`
		}
		url := srv.URL + "/agents/loop" + strings.ReplaceAll(o.path, "{threadId}", "spec")
		if code, got := send(t, o.method, url, body, alice...); code < 200 || code > 299 {
			t.Errorf("%s %s: %d %s", o.method, o.path, code, got)
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestThreadDeleteTakesRunLogs: a thread API given a run log's
// DeleteThread as cleanup deletes the thread's resumable runs with it.
func TestThreadDeleteTakesRunLogs(t *testing.T) {
	t.Parallel()
	a, err := newLoopAgentWith(loopDemo{})
	if err != nil {
		t.Fatal(err)
	}
	lg, err := resume.NewMemoryLog()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = lg.Close() })
	ctx := core.ContextWithPrincipal(t.Context(), "user:alice")
	if _, err := a.Execute(ctx, loop.Input{ThreadID: "logged", Messages: []agui.Message{loop.UserText("hi")}}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := lg.Begin(ctx, resume.RunMeta{RunID: "run-1", ThreadID: "logged", Principal: "user:alice", Owner: "a"}, time.Minute); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(loop.ThreadsHandler(a, principal, loop.WithThreadCleanup(lg.DeleteThread)))
	t.Cleanup(srv.Close)
	if code, body := send(t, http.MethodDelete, srv.URL+"/agents/loop/threads/logged", "", "Authorization", "Bearer alice-token"); code != http.StatusNoContent {
		t.Fatalf("delete: %d %s", code, body)
	}
	if _, err := lg.Status(t.Context(), "run-1"); !errors.Is(err, resume.ErrRunNotFound) {
		t.Fatalf("the thread's run log after the delete: %v, want ErrRunNotFound", err)
	}
}

// TestThreadAPIAcrossReplicasOnRedis: two apps on one Redis serve one
// thread list: a thread created on one is listed, renamed and deleted on
// the other.
func TestThreadAPIAcrossReplicasOnRedis(t *testing.T) {
	threadAPIAcrossReplicas(t, redistest.Start(t).URL(), "")
}

// TestThreadAPIAcrossReplicasOnPostgres: the same on one PostgreSQL.
func TestThreadAPIAcrossReplicasOnPostgres(t *testing.T) {
	url, err := pgtest.Start(t).CreateDB(t.Context(), "app")
	if err != nil {
		t.Fatal(err)
	}
	threadAPIAcrossReplicas(t, "", url)
}

// threadAPIAcrossReplicas runs two apps on the store of redisURL or
// postgresURL.
func threadAPIAcrossReplicas(t *testing.T, redisURL, postgresURL string) {
	var urls [2]string
	for i := range urls {
		cfg := defaultConfig(slog.New(slog.DiscardHandler))
		closeStore, err := useStores(&cfg, redisURL, postgresURL)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = closeStore() })
		urls[i] = newTestServerWith(t, cfg).URL + "/agents/loop"
	}
	alice := []string{"Authorization", "Bearer alice-token"}
	finished(t, stream(t, urls[0], `{"threadId":"shared","runId":"r","messages":[{"id":"u1","role":"user","content":"hi"}]}`, alice...))
	if code, body := send(t, http.MethodGet, urls[1]+"/threads", "", alice...); code != http.StatusOK || !strings.Contains(body, `"id":"shared"`) {
		t.Fatalf("the other replica's list: %d %s", code, body)
	}
	if code, body := send(t, http.MethodPatch, urls[1]+"/threads/shared", `{"title":"Both"}`, alice...); code != http.StatusOK {
		t.Fatalf("rename on the other replica: %d %s", code, body)
	}
	if code, body := send(t, http.MethodGet, urls[0]+"/threads", "", alice...); !strings.Contains(body, `"title":"Both"`) {
		t.Fatalf("the first replica's list after the rename: %d %s", code, body)
	}
	if code, body := send(t, http.MethodGet, urls[0]+"/threads", "", "Authorization", "Bearer bob-token"); strings.Contains(body, "shared") {
		t.Fatalf("bob's list: %d %s", code, body)
	}
	if code, body := send(t, http.MethodDelete, urls[0]+"/threads/shared", "", alice...); code != http.StatusNoContent {
		t.Fatalf("delete: %d %s", code, body)
	}
	if code, _ := send(t, http.MethodGet, urls[1]+"/threads/shared", "", alice...); code != http.StatusNotFound {
		t.Fatalf("the deleted thread on the other replica: %d", code)
	}
}
