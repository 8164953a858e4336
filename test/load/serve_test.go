package load_test

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/agui-go/agui/test/load"
)

// TestServeHoldsRunsUntilTheClientLeaves splits a load run over Serve and
// a client that leaves each stream 20 events after all are open: more
// than a run that finished by itself would carry.
func TestServeHoldsRunsUntilTheClientLeaves(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	served := make(chan error, 1)
	go func() { served <- load.Serve(ctx, ln, 10*time.Millisecond) }()
	res, err := load.Run(t.Context(), load.Config{
		URL:      "http://" + ln.Addr().String() + load.TickerPath,
		Streams:  50,
		Leave:    20,
		Deadline: 30 * time.Second,
	})
	cancel()
	if serr := <-served; serr != nil {
		t.Errorf("Serve: %v", serr)
	}
	if err != nil {
		t.Fatal(err)
	}
	if res.Failures != 0 {
		t.Fatalf("%d of %d streams failed: %v", res.Failures, res.Streams, res.Errors)
	}
	// The first event, and the 20 a stream reads before it leaves.
	if min := int64(res.Streams * (1 + 20)); res.Events < min {
		t.Errorf("%d events, want at least %d", res.Events, min)
	}
}
