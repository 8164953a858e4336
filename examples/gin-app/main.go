// Command gin-app serves every feature of this SDK from one Gin app:
//
//	go run ./examples/gin-app -addr 127.0.0.1:8080
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
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	var f flags
	f.register(flag.CommandLine)
	flag.Parse()
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := run(*addr, logger, f); err != nil {
		logger.Error("gin-app", slog.Any("error", err))
		os.Exit(1)
	}
}

// run serves until SIGINT or SIGTERM, then drains: new runs get 503,
// in-flight runs end with RUN_ERROR (CANCELLED), and the server closes
// within ten seconds.
func run(addr string, logger *slog.Logger, f flags) error {
	gin.SetMode(gin.ReleaseMode)
	cfg := defaultConfig(logger)
	closeLogs, err := f.apply(&cfg)
	if err != nil {
		return err
	}
	defer closeLogs()
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
	err = errors.Join(err, cfg.resumables.Close(shutdownCtx))
	if serveErr := <-served; !errors.Is(serveErr, http.ErrServerClosed) {
		err = errors.Join(err, serveErr)
	}
	return err
}
