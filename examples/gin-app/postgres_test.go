package main

import (
	"encoding/json"
	"log/slog"
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
