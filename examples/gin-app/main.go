// Command gin-app serves every feature of this SDK from one Gin app:
//
//	go run ./examples/gin-app -addr 127.0.0.1:8080
//
// With -redis redis://host:6379/0 (or AGUI_REDIS_URL) the loop route keeps
// its threads in Redis, so several replicas share them; without it they
// live in memory.
//
// See "The example app" in the repository's README.md for the routes and a
// curl line for each.
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

	"github.com/agui-go/agui/ginagui"
	"github.com/agui-go/agui/loop"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	otelExport := flag.String("otel", "", `export the loop route's OpenTelemetry spans: "stdout" prints them as JSON`)
	redisURL := flag.String("redis", os.Getenv("AGUI_REDIS_URL"), "Redis URL for the loop route's checkpoints (default $AGUI_REDIS_URL; none: in memory)")
	lease := flag.Duration("lease", 5*time.Minute, "how long a dead replica's run keeps its loop thread")
	bookDelay := flag.Duration("book-delay", 0, "how long the loop route's book_trip tool takes")
	flag.Parse()
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	shutdownTracing, err := setupTracing(*otelExport, os.Stdout)
	if err != nil {
		logger.Error("gin-app", slog.Any("error", err))
		os.Exit(2)
	}
	cfg := defaultConfig(logger)
	cfg.loop.bookDelay = *bookDelay
	cfg.loopOptions = append(cfg.loopOptions, loop.WithLease(*lease))
	closeStore, err := useRedis(&cfg, *redisURL)
	if err == nil {
		err = run(*addr, cfg)
		err = errors.Join(err, closeStore())
	}
	err = errors.Join(err, shutdownTracing(context.Background()))
	if err != nil {
		logger.Error("gin-app", slog.Any("error", err))
		os.Exit(1)
	}
}

// run serves until SIGINT or SIGTERM, then drains: new runs get 503,
// in-flight runs end with RUN_ERROR (CANCELLED), and the server closes
// within ten seconds.
func run(addr string, cfg config) error {
	gin.SetMode(gin.ReleaseMode)
	logger := cfg.logger
	router, err := newRouter(cfg)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: router, ReadHeaderTimeout: 10 * time.Second}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// Listen first, so that -addr 127.0.0.1:0 works and the log line
	// names the port actually bound (the conformance suite reads it).
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	logger.Info("listening", slog.String("url", "http://"+ln.Addr().String()))

	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = ginagui.Shutdown(shutdownCtx, srv, cfg.gate)
	if serveErr := <-served; !errors.Is(serveErr, http.ErrServerClosed) {
		err = errors.Join(err, serveErr)
	}
	return err
}
