// Command gin-app serves every feature of this SDK from one Gin app:
//
//	go run ./examples/gin-app -addr 127.0.0.1:8080
//
// With -redis redis://host:6379/0 (or AGUI_REDIS_URL) the loop route keeps
// its threads in Redis and the resumable routes (/agents/detached) their
// run logs, so several replicas share them and any replica serves a
// rejoin; without it they live in memory. -postgres postgres://host/db (or
// DATABASE_URL) does the same with PostgreSQL, creating its tables at
// start; give one of the two.
//
// With -openai-base-url http://127.0.0.1:11434/v1 -model llama3.2 (any
// OpenAI-compatible server; or OPENAI_BASE_URL), or -model-provider
// anthropic, the loop-backed routes (/agents/loop, /agents/frontend,
// /agents/a2ui, /agents/plan) run on that model instead of their scripted
// ones.
//
// See docs/example-app.md in the repository for the routes and a
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

	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/examples/internal/model"
	"github.com/agui-go/agui/loop"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	otelExport := flag.String("otel", "", `export the loop route's OpenTelemetry spans: "stdout" prints them as JSON`)
	redisURL := flag.String("redis", os.Getenv("AGUI_REDIS_URL"), "Redis URL for the loop route's checkpoints and the resumable routes' run logs (default $AGUI_REDIS_URL; none: in memory)")
	postgresURL := flag.String("postgres", os.Getenv("DATABASE_URL"), "PostgreSQL URL for the loop route's checkpoints and the resumable routes' run logs, instead of -redis (default $DATABASE_URL; none: in memory)")
	lease := flag.Duration("lease", 5*time.Minute, "how long a dead replica's run keeps its loop thread")
	bookDelay := flag.Duration("book-delay", 0, "how long the loop route's book_trip tool takes")
	titles := flag.Bool("titles", false, "name the loop route's threads after their first exchange (loop.WithTitles; default off)")
	busy := loop.BusyRefuse
	flag.TextVar(&busy, "busy", loop.BusyRefuse, "what the loop route does with a run on a thread another run holds: refuse, enqueue, interrupt or steer")
	var f flags
	f.register(flag.CommandLine)
	// The loop-backed routes' model: scripted unless chosen (see
	// examples/internal/model).
	var m model.Flags
	m.Register(flag.CommandLine)
	flag.Parse()
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	shutdownTracing, err := setupTracing(*otelExport, os.Stdout)
	if err != nil {
		logger.Error("gin-app", slog.Any("error", err))
		os.Exit(2)
	}
	cfg := defaultConfig(logger)
	if err := f.apply(&cfg); err != nil {
		logger.Error("gin-app", slog.Any("error", err))
		os.Exit(2)
	}
	cfg.loop.bookDelay = *bookDelay
	cfg.loop.model = m
	cfg.loopOptions = append(cfg.loopOptions, loop.WithLease(*lease), loop.WithBusy(busy))
	if *titles {
		cfg.loopOptions = append(cfg.loopOptions, loop.WithTitles(10*time.Second))
	}
	closeStore, err := useStores(&cfg, *redisURL, *postgresURL)
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
// within ten seconds; a second signal ends every stream at once.
func run(addr string, cfg config) error {
	gin.SetMode(gin.ReleaseMode)
	logger := cfg.logger
	// Listen first, so that -addr 127.0.0.1:0 works, the log line names
	// the port actually bound (the conformance suite reads it), and
	// /agents/remote knows the app's own address.
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	cfg.self = "http://" + ln.Addr().String()
	router, err := newRouter(cfg)
	if err != nil {
		return errors.Join(err, ln.Close())
	}
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	err = serve(ln, newServer(router), cfg.gate, sigs, 10*time.Second, logger)
	// The gate's shutdown has ended every run's log (a stubborn agent's at
	// its deadline); Close joins the runs' goroutines, abandoning those of
	// agents that ignore their context after core.ForceGrace.
	closeCtx, cancel := context.WithTimeout(context.Background(), core.ForceGrace)
	defer cancel()
	return errors.Join(err, cfg.resumables.Close(closeCtx))
}

// newServer is the example's http.Server: every phase of a connection is
// bounded. Request bodies are bounded by the agent handlers' own read
// timeout (core.WithReadTimeout), and streams by their write timeout, so
// the server sets no ReadTimeout or WriteTimeout that would cut a long
// run.
func newServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
}

// serve serves on ln until the first signal on sigs, then shuts down
// within grace (see core.Shutdown). A second signal cuts the grace
// short: every stream still open gets its RUN_ERROR (CANCELLED) at once.
// It returns nil when every stream got its terminal event.
func serve(ln net.Listener, srv *http.Server, gate *core.Gate, sigs <-chan os.Signal, grace time.Duration, logger *slog.Logger) error {
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	logger.Info("listening", slog.String("url", "http://"+ln.Addr().String()))

	select {
	case err := <-served:
		return err
	case <-sigs:
	}
	logger.Info("shutting down; a second signal ends every stream now")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		select {
		case <-sigs:
			logger.Info("second signal: ending every stream now")
			cancel()
		case <-shutdownCtx.Done():
		}
	}()
	err := core.Shutdown(shutdownCtx, srv, gate)
	cancel()
	<-watched
	if serveErr := <-served; !errors.Is(serveErr, http.ErrServerClosed) {
		err = errors.Join(err, serveErr)
	}
	return err
}

// useStores puts the loop's threads and the run logs in Redis or in
// PostgreSQL, whichever URL is given; both is an error.
func useStores(cfg *config, redisURL, postgresURL string) (func() error, error) {
	if redisURL != "" && postgresURL != "" {
		return nil, errors.New("-redis and -postgres (or AGUI_REDIS_URL and DATABASE_URL): give one")
	}
	if postgresURL != "" {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		return usePostgres(ctx, cfg, postgresURL)
	}
	return useRedis(cfg, redisURL)
}
