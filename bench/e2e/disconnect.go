package e2e

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
)

// DisconnectResult is what Disconnect measured. Values are immutable.
type DisconnectResult struct {
	HangUps  int
	Failures int
	// Latency holds, sorted, the time from each client's hang-up to its
	// agent seeing its context done.
	Latency []time.Duration
}

// Disconnect measures how fast a client's hang-up cancels its run, n times
// in a row, through ours on Gin (useGin) or on plain net/http, served in
// this process on a loopback listener. Each time a client posts a run,
// reads the first event, notes the time and closes the connection; the
// agent, blocked on its context, notes when that context is done. A run
// whose agent has not seen the hang-up within 5 s is a failure.
func Disconnect(ctx context.Context, useGin bool, n int) (DisconnectResult, error) {
	cancelled := make(chan time.Time, 1)
	agent := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		<-ctx.Done()
		select {
		case cancelled <- time.Now():
		default: // a run the measurement gave up on
		}
		return agui.Outcome{}, ctx.Err()
	})
	var h http.Handler
	if useGin {
		gin.SetMode(gin.ReleaseMode)
		r := gin.New()
		if err := ginagui.Register(r, PathIdle, agent, quiet()); err != nil {
			return DisconnectResult{}, err
		}
		h = r
	} else {
		ours, err := core.NewHandler(agent, core.WithHandlerLogger(slog.New(slog.DiscardHandler)))
		if err != nil {
			return DisconnectResult{}, err
		}
		h = ours
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return DisconnectResult{}, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	defer func() {
		_ = srv.Close()
		<-served
	}()

	res := DisconnectResult{HangUps: n}
	for i := range n {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		c, err := openIdle(ctx, ln.Addr().String(), requestBody(nil, "hangup-"+strconv.Itoa(i), nil))
		if err != nil {
			res.Failures++
			continue
		}
		hungUp := time.Now()
		_ = c.Close()
		select {
		case at := <-cancelled:
			res.Latency = append(res.Latency, at.Sub(hungUp))
		case <-time.After(5 * time.Second):
			return res, fmt.Errorf("e2e: hang-up %d: the run was not cancelled within 5 s", i)
		case <-ctx.Done():
			return res, ctx.Err()
		}
	}
	slices.Sort(res.Latency)
	if res.Failures > 0 {
		return res, errors.New("e2e: some runs could not be opened")
	}
	return res, nil
}
