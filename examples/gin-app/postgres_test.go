package main

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/internal/pgtest"
	"github.com/agui-go/agui/loop"
)

func TestUseStoresRefusesBoth(t *testing.T) {
	cfg := defaultConfig(slog.New(slog.DiscardHandler))
	if _, err := useStores(&cfg, "redis://127.0.0.1:1", "postgres://127.0.0.1:1/x"); err == nil {
		t.Fatal("-redis and -postgres together accepted")
	}
	if _, err := usePostgres(t.Context(), &cfg, "mysql://nope"); err == nil {
		t.Fatal("a URL that is not postgres:// accepted")
	}
}

// With -postgres the loop route's thread lives in PostgreSQL: a second
// app on the same database answers the approval the first one paused on.
func TestUsePostgresSharesThreads(t *testing.T) {
	srv := pgtest.Start(t)
	url, err := srv.CreateDB(t.Context(), "app")
	if err != nil {
		t.Fatal(err)
	}
	apps := make([]core.Agent[core.NoState], 2)
	for i := range apps {
		cfg := defaultConfig(slog.New(slog.DiscardHandler))
		closeStore, err := useStores(&cfg, "", url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = closeStore() })
		if apps[i], err = newLoopAgentWith(cfg.loop, cfg.loopOptions...); err != nil {
			t.Fatal(err)
		}
	}
	in := agui.NewInput("thread-p", "run-1")
	in.Messages = []agui.Message{loop.UserText("Plan a weekend in Oslo")}
	evs := runLoop(t, apps[0], in)
	intr := evs[len(evs)-1].(*agui.RunFinished).Outcome.Interrupts[0]

	pool, err := pgxpool.New(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	var n int
	if err := pool.QueryRow(t.Context(), "SELECT count(*) FROM agui_loop_threads WHERE thread_id = 'thread-p'").Scan(&n); err != nil || n != 1 {
		t.Fatalf("thread row in PostgreSQL: %d %v", n, err)
	}
	resume := agui.NewInput("thread-p", "run-2")
	resume.Resume = []agui.ResumeEntry{{InterruptID: intr.ID, Status: agui.ResumeResolved, Payload: json.RawMessage(`{"approved":true}`)}}
	evs = runLoop(t, apps[1], resume)
	if fin, ok := evs[len(evs)-1].(*agui.RunFinished); !ok || fin.Outcome.Type != agui.OutcomeSuccess {
		t.Fatalf("resume on the second app ended with %s", evs[len(evs)-1].Type())
	}
}

// TestThreadAPIOnPostgres: the loop route's thread API with -postgres:
// alice's threads listed newest first from the database, renamed,
// archived, paged and deleted with their message rows; bob sees none.
func TestThreadAPIOnPostgres(t *testing.T) {
	url, err := pgtest.Start(t).CreateDB(t.Context(), "app")
	if err != nil {
		t.Fatal(err)
	}
	cfg := defaultConfig(slog.New(slog.DiscardHandler))
	closeStore, err := useStores(&cfg, "", url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = closeStore() })
	srv := newTestServerWith(t, cfg)
	alice := []string{"Authorization", "Bearer alice-token"}
	bob := []string{"Authorization", "Bearer bob-token"}
	base := srv.URL + "/agents/loop/threads"
	for _, id := range []string{"pg1", "pg2"} {
		finished(t, stream(t, srv.URL+"/agents/loop",
			`{"threadId":"`+id+`","runId":"r","messages":[{"id":"u-`+id+`","role":"user","content":"hi"}]}`, alice...))
	}
	list := func(q string, h ...string) string {
		t.Helper()
		code, body := send(t, http.MethodGet, base+q, "", h...)
		var page struct{ Threads []struct{ ID, Title string } }
		if err := json.Unmarshal([]byte(body), &page); err != nil || code != http.StatusOK {
			t.Fatalf("list %s: %d %s %v", q, code, body, err)
		}
		var ids []string
		for _, x := range page.Threads {
			ids = append(ids, x.ID+":"+x.Title)
		}
		return strings.Join(ids, ",")
	}
	if got := list("", alice...); got != "pg2:,pg1:" {
		t.Fatalf("alice's threads: %s", got)
	}
	if got := list("", bob...); got != "" {
		t.Fatalf("bob's threads: %s", got)
	}
	if code, body := send(t, http.MethodPatch, base+"/pg1", `{"title":"Oslo"}`, alice...); code != http.StatusOK {
		t.Fatalf("rename: %d %s", code, body)
	}
	if code, body := send(t, http.MethodPatch, base+"/pg2", `{"archived":true}`, alice...); code != http.StatusOK {
		t.Fatalf("archive: %d %s", code, body)
	}
	if got := list("", alice...) + "|" + list("?archived=true", alice...); got != "pg1:Oslo|pg2:" {
		t.Fatalf("alice's threads, then her archived ones: %s", got)
	}
	if code, body := send(t, http.MethodGet, base+"/pg1/messages?limit=1", "", alice...); code != http.StatusOK ||
		!strings.Contains(body, `"hasMoreBefore":true`) {
		t.Fatalf("pg1's newest message: %d %s", code, body)
	}
	if code, _ := send(t, http.MethodDelete, base+"/pg1", "", bob...); code != http.StatusForbidden {
		t.Fatalf("bob deletes alice's thread: %d", code)
	}
	if code, body := send(t, http.MethodDelete, base+"/pg1", "", alice...); code != http.StatusNoContent {
		t.Fatalf("delete: %d %s", code, body)
	}
	pool, err := pgxpool.New(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	var rows int
	if err := pool.QueryRow(t.Context(), `SELECT (SELECT count(*) FROM agui_loop_threads WHERE thread_id = 'pg1')
		+ (SELECT count(*) FROM agui_loop_messages WHERE thread_id = 'pg1')`).Scan(&rows); err != nil || rows != 0 {
		t.Fatalf("rows of the deleted thread: %d %v", rows, err)
	}
	if code, _ := send(t, http.MethodGet, base+"/pg1", "", alice...); code != http.StatusNotFound {
		t.Fatalf("a deleted thread: %d", code)
	}
}
