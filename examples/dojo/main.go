// Command dojo serves the AG-UI Dojo's features from Go, each at the
// path and contract the Dojo's pages expect, under one base path:
//
//	go run ./examples/dojo -openai-base-url http://127.0.0.1:11434/v1 -model llama3.2
//
// serves POST http://127.0.0.1:8023/dojo/agentic_chat,
// /dojo/backend_tool_rendering and the rest (see features), each with GET
// <route>/capabilities. The model is chosen as examples/internal/model
// documents (OPENAI_BASE_URL, OPENAI_API_KEY and OPENAI_CHAT_MODEL_ID, as
// the Dojo's own test runs set them, work too); without one a scripted
// model says how to choose one. See docs/dojo.md in the repository for
// running the upstream Dojo against it.
package main

import (
	"context"
	"errors"
	"flag"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/examples/internal/model"
	"github.com/agui-go/agui/loop"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8023", "address to listen on (port 0: any free port, logged)")
	base := flag.String("base", "/dojo", "the base path every feature is served under")
	researchStep := flag.Duration("research-step", 800*time.Millisecond, "how long each of background_agents' five research steps takes")
	var m model.Flags
	m.Register(flag.CommandLine)
	flag.Parse()
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := run(*addr, *base, *researchStep, m, logger); err != nil {
		logger.Error("dojo", slog.Any("error", err))
		os.Exit(1)
	}
}

// run serves until SIGINT or SIGTERM, then ends every run within ten
// seconds (see core.Shutdown) and the background work at once (see
// shutdown).
func run(addr, base string, researchStep time.Duration, m model.Flags, logger *slog.Logger) error {
	provider, err := m.New(loop.ProviderFunc(offline))
	if err != nil {
		return err
	}
	bg, err := loop.NewBackground(loop.WithTaskActivityType(taskActivity))
	if err != nil {
		return err
	}
	gin.SetMode(gin.ReleaseMode)
	gate := new(core.Gate)
	router, err := newRouter(base, provider, bg, researchStep, core.WithGate(gate), core.WithHandlerLogger(logger))
	if err != nil {
		return errors.Join(err, bg.Shutdown(context.Background()))
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: router, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	// test/dojo reads the bound address from this line.
	logger.Info("listening", slog.String("url", "http://"+ln.Addr().String()+base), slog.String("model", m.Chosen()))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = shutdown(shutdownCtx, srv, gate, bg, logger)
	if serveErr := <-served; !errors.Is(serveErr, http.ErrServerClosed) {
		err = errors.Join(err, serveErr)
	}
	return err
}

// shutdown ends every run within ctx, then cancels the background work
// still running: the threads live in this process's memory store, so a
// result finished after the server stops would have nowhere to go, and
// waiting for it would only hold the exit up. Cancelled tasks are the
// stop that was asked for, not a failure: they are logged, and the
// error is core.Shutdown's alone.
func shutdown(ctx context.Context, srv *http.Server, gate *core.Gate, bg *loop.Background, logger *slog.Logger) error {
	err := core.Shutdown(ctx, srv, gate)
	if n := bg.Len(); n > 0 {
		logger.Info("background tasks cancelled", slog.Int("tasks", n))
	}
	now, cancel := context.WithCancel(context.Background())
	cancel()
	// A done context makes Shutdown cancel the tasks and wait for their
	// goroutines; its error only says that some were cancelled.
	_ = bg.Shutdown(now)
	return err
}
