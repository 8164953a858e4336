package main

import (
	"encoding/json"
	"log/slog"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/internal/redistest"
	"github.com/agui-go/agui/loop"
)

func TestUseRedisOff(t *testing.T) {
	cfg := defaultConfig(slog.New(slog.DiscardHandler))
	closeStore, err := useRedis(&cfg, "")
	if err != nil || len(cfg.loopOptions) != 0 || closeStore() != nil {
		t.Fatalf("without a URL: %v, %d options", err, len(cfg.loopOptions))
	}
	if _, err := useRedis(&cfg, "http://nope"); err == nil {
		t.Fatal("a URL that is not redis:// accepted")
	}
}

// With -redis the loop route's thread lives in Redis: a second app on the
// same Redis answers the approval the first one paused on.
func TestUseRedisSharesThreads(t *testing.T) {
	srv := redistest.Start(t)
	apps := make([]core.Agent[core.NoState], 2)
	for i := range apps {
		cfg := defaultConfig(slog.New(slog.DiscardHandler))
		closeStore, err := useRedis(&cfg, srv.URL())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = closeStore() })
		if apps[i], err = newLoopAgentWith(cfg.loop, cfg.loopOptions...); err != nil {
			t.Fatal(err)
		}
	}
	in := agui.NewInput("thread-r", "run-1")
	in.Messages = []agui.Message{loop.UserText("Plan a weekend in Oslo")}
	evs := runLoop(t, apps[0], in)
	intr := evs[len(evs)-1].(*agui.RunFinished).Outcome.Interrupts[0]

	c := redis.NewClient(&redis.Options{Addr: srv.Addr()})
	t.Cleanup(func() { _ = c.Close() })
	if n, err := c.Exists(t.Context(), "agui:gin-app:{thread-r}").Result(); err != nil || n != 1 {
		t.Fatalf("thread key in Redis: %d %v", n, err)
	}
	resume := agui.NewInput("thread-r", "run-2")
	resume.Resume = []agui.ResumeEntry{{InterruptID: intr.ID, Status: agui.ResumeResolved, Payload: json.RawMessage(`{"approved":true}`)}}
	evs = runLoop(t, apps[1], resume)
	if fin, ok := evs[len(evs)-1].(*agui.RunFinished); !ok || fin.Outcome.Type != agui.OutcomeSuccess {
		t.Fatalf("resume on the second app ended with %s", evs[len(evs)-1].Type())
	}
}
