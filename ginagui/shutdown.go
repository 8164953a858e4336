package ginagui

import (
	"context"
	"errors"
	"net/http"

	"github.com/agui-go/agui/core"
)

// Shutdown stops srv gracefully when it serves agent routes that share
// gate (core.WithGate): the gate refuses new runs with 503 and cancels the
// in-flight ones, whose clients each get a terminal RUN_ERROR (CANCELLED),
// while srv stops listening; then srv waits for the finished streams'
// connections. http.Server.Shutdown alone would wait for open streams
// forever. Both are bounded by ctx. A nil gate means there are no runs
// to end: Shutdown is then srv.Shutdown.
func Shutdown(ctx context.Context, srv *http.Server, gate *core.Gate) error {
	if gate == nil {
		return srv.Shutdown(ctx)
	}
	gateDone := make(chan error, 1)
	go func() { gateDone <- gate.Shutdown(ctx) }()
	srvErr := srv.Shutdown(ctx)
	return errors.Join(<-gateDone, srvErr)
}
