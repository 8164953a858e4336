package main

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/loop"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// A stop while a research task runs ends cleanly and without waiting for
// it: the task is cancelled (its result would have nowhere to go once the
// process is gone) and shutdown reports no error, so SIGTERM exits 0.
func TestShutdownCancelsTheResearch(t *testing.T) {
	model := loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{{ID: "call-1", Name: "run_deep_research", Args: `{"topic":"Solana ecosystem"}`}}},
		loop.Turn{Text: "It runs in the background."},
	)
	bg, err := loop.NewBackground(loop.WithTaskActivityType(taskActivity))
	if err != nil {
		t.Fatal(err)
	}
	gate := new(core.Gate)
	// Each research step takes an hour: only a cancellation ends the task.
	r, err := newRouter("/dojo", model, bg, time.Hour, core.WithGate(gate))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: r}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	serveErr := sync.OnceValue(func() error { return <-served })
	t.Cleanup(func() {
		_ = srv.Close()
		_ = serveErr()
		_ = bg.Shutdown(context.Background())
	})

	runFeature(t, "http://"+ln.Addr().String()+"/dojo", "background_agents", input("Research the Solana ecosystem for me."))
	if n := bg.Len(); n != 1 {
		t.Fatalf("%d tasks running, want the research", n)
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	if err := shutdown(ctx, srv, gate, bg, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	if ctx.Err() != nil {
		t.Fatal("shutdown waited for the research until its deadline")
	}
	if n := bg.Len(); n != 0 {
		t.Fatalf("%d tasks left after shutdown", n)
	}
	if err := serveErr(); !errors.Is(err, http.ErrServerClosed) {
		t.Fatalf("serve: %v", err)
	}
}
