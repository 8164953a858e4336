package faults_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
)

// TestReaderThatNeverReads opens a stream on an agent that emits 4 KiB
// deltas as fast as it can and never reads the body. Backpressure must
// stop the agent: it may only get as far as the socket buffers and the
// transport's bounded queues let it, so the server's heap stays flat while
// the agent has pushed many times that through. When the client goes
// away, the run ends.
func TestReaderThatNeverReads(t *testing.T) {
	const delta = 4 << 10
	var emitted atomic.Int64
	agentDone := make(chan struct{})
	agent := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		defer close(agentDone)
		m, err := rc.Message()
		if err != nil {
			return agui.Outcome{}, err
		}
		chunk := strings.Repeat("x", delta)
		for {
			if err := m.Delta(chunk); err != nil {
				return agui.Outcome{}, err
			}
			emitted.Add(delta)
		}
	})
	r := gin.New()
	// No write deadline: only the client's going away may end the run.
	if err := ginagui.Register(r, "/fast", agent, quiet(core.WithWriteTimeout(0))...); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(r)
	defer srv.Close()
	client := srv.Client()
	defer client.CloseIdleConnections()

	before := heapInUse()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/fast", strings.NewReader(string(runBody("never-reads"))))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := client.Do(req) // headers only; the body is never read
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()

	// Wait until the agent is held by backpressure: its count stops moving.
	stalled := waitStalled(t, &emitted, 30*time.Second)
	growth := heapInUse() - before
	t.Logf("the agent emitted %.1f MiB before backpressure stopped it; server heap grew %.2f MiB",
		float64(stalled)/(1<<20), float64(growth)/(1<<20))
	// Loopback socket buffers alone hold megabytes; less means the agent
	// was starved rather than stopped, and the figures would prove nothing.
	if stalled < 1<<20 {
		t.Fatalf("the agent emitted only %d bytes; the test needs it to fill the pipe", stalled)
	}
	const limit = 4 << 20
	if growth > limit {
		t.Errorf("heap grew %d bytes with one stalled stream, want under %d", growth, limit)
	}
	if growth*2 > stalled {
		t.Errorf("heap grew %d bytes, more than half the %d bytes emitted: events are piling up in memory", growth, stalled)
	}

	cancel()
	select {
	case <-agentDone:
	case <-time.After(10 * time.Second):
		t.Fatal("the run did not end after the client went away")
	}
}

// heapInUse is the live heap after a full collection.
func heapInUse() int64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapInuse)
}

// waitStalled polls n until it has not moved for a second and
// returns its value. Backpressure is the absence of progress, so this is
// a measurement over time by nature.
func waitStalled(t *testing.T, n *atomic.Int64, within time.Duration) int64 {
	t.Helper()
	deadline := time.Now().Add(within)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	last, still := n.Load(), 0
	for {
		<-tick.C
		cur := n.Load()
		if cur == last && cur > 0 {
			if still++; still == 20 {
				return cur
			}
		} else {
			last, still = cur, 0
		}
		if time.Now().After(deadline) {
			t.Fatalf("the agent never stalled: %d bytes emitted and counting", cur)
		}
	}
}

// TestReaderThatNeverReadsNorLeaves is the same stalled reader, but it
// keeps the connection open: the handler's write timeout (200 ms here)
// must treat it as gone, so the run ends with the DISCONNECTED cause
// without the client's help.
func TestReaderThatNeverReadsNorLeaves(t *testing.T) {
	causes := make(chan agui.Code, 1)
	agent := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		defer func() { causes <- agui.CodeOf(context.Cause(ctx)) }()
		m, err := rc.Message()
		if err != nil {
			return agui.Outcome{}, err
		}
		chunk := strings.Repeat("x", 4<<10)
		for {
			if err := m.Delta(chunk); err != nil {
				return agui.Outcome{}, err
			}
		}
	})
	r := gin.New()
	if err := ginagui.Register(r, "/fast", agent, quiet(core.WithWriteTimeout(200*time.Millisecond))...); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(r)
	defer srv.Close()
	client := srv.Client()
	defer client.CloseIdleConnections()
	res := post(t, client, srv.URL+"/fast", runBody("stalled"))
	defer res.Body.Close()

	select {
	case code := <-causes:
		if code != agui.CodeDisconnected {
			t.Errorf("the run ended with cause %q, want %q", code, agui.CodeDisconnected)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("a reader that never reads kept the run alive past the write timeout")
	}
}
