package load

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
)

// TickerPath is the route Serve mounts the ticker agent on.
const TickerPath = tickerPath

// Serve serves the ticker agent through ginagui on ln until ctx ends, then
// closes the server and ln. Each run streams a delta at once and then one
// every interval until its client leaves: it never finishes by itself, so
// the client sets Config.Leave. It is the server half of a load run split
// over two processes (Config.URL pointing at it), which gives the client
// and the server each the whole open-file limit.
func Serve(ctx context.Context, ln net.Listener, interval time.Duration) error {
	if interval <= 0 {
		interval = 100 * time.Millisecond
	}
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	// A release channel that is never closed: every run is held until its
	// client goes away.
	if err := ginagui.Register(r, tickerPath, tickerAgent(interval, 1, make(chan struct{})),
		core.WithHandlerLogger(slog.New(slog.DiscardHandler))); err != nil {
		return err
	}
	srv := &http.Server{Handler: r, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
		_ = srv.Close()
		if err := <-served; !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	case err := <-served:
		return err
	}
}
