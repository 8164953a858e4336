package core

import (
	"context"
	"errors"
	"net/http"
)

// Shutdown stops srv gracefully when it serves agent routes that share
// gate ([WithGate]): the gate refuses new runs with 503 and cancels the
// in-flight ones, whose clients each get a terminal RUN_ERROR (CANCELLED),
// and answers requests still uploading their body 503 at once (a stalled
// upload would otherwise hold its connection past ctx), while srv stops
// listening; then srv waits for the finished streams'
// connections. [http.Server.Shutdown] alone would wait for open streams
// forever. Both are bounded by ctx. A nil gate means there are no runs
// to end: Shutdown is then srv.Shutdown.
//
// At ctx's deadline, runs whose agent ignores its context still end: their
// streams get RUN_ERROR (CANCELLED) from the writer (see [Gate]), and
// Shutdown gives their connections up to [ForceGrace] more to close.
// It returns nil when every stream got its terminal event and every
// connection closed; otherwise the connections left are closed and the
// error says why.
func Shutdown(ctx context.Context, srv *http.Server, gate *Gate) error {
	if gate == nil {
		return srv.Shutdown(ctx)
	}
	gateDone := make(chan error, 1)
	go func() { gateDone <- gate.Shutdown(ctx) }()
	srvErr := srv.Shutdown(ctx)
	gateErr := <-gateDone
	if srvErr != nil && gateErr == nil {
		// Every stream ended, some only at the deadline: their
		// connections are closing now.
		grace, cancel := context.WithTimeout(context.WithoutCancel(ctx), ForceGrace)
		defer cancel()
		srvErr = srv.Shutdown(grace)
	}
	if srvErr != nil {
		srvErr = errors.Join(srvErr, srv.Close())
	}
	return errors.Join(gateErr, srvErr)
}
