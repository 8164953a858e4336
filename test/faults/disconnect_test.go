package faults_test

import (
	"bufio"
	"context"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
	"github.com/agui-go/agui/transformers"
)

// observed is what one agent saw of its run's end.
type observed struct {
	cancelled bool
	code      agui.Code
}

// tracker records, per run id, that an agent started and how its context
// ended. It is safe for concurrent use.
type tracker struct {
	mu      sync.Mutex
	started map[string]bool
	ended   map[string]observed
}

func newTracker() *tracker {
	return &tracker{started: map[string]bool{}, ended: map[string]observed{}}
}

func (tr *tracker) start(id string) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.started[id] = true
}

func (tr *tracker) end(ctx context.Context, id string) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.ended[id] = observed{cancelled: ctx.Err() != nil, code: agui.CodeOf(context.Cause(ctx))}
}

// endlessAgent never finishes on its own. Half of its runs (chosen by run
// id) stream deltas until an emit fails; the other half emit a few deltas
// and then wait on ctx.Done, like an agent blocked in a model call. Either
// way the run can only end through cancellation.
func endlessAgent(tr *tracker) core.Agent[core.NoState] {
	return core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		id := rc.Input().RunID
		tr.start(id)
		defer tr.end(ctx, id)
		m, err := rc.Message()
		if err != nil {
			return agui.Outcome{}, err
		}
		block := blocks(id)
		for i := 0; ; i++ {
			if block && i == 5 {
				<-ctx.Done()
				return agui.Outcome{}, ctx.Err()
			}
			if err := m.Delta(strconv.Itoa(i) + " "); err != nil {
				return agui.Outcome{}, err
			}
		}
	})
}

// blocks reports whether endlessAgent's run id blocks after five deltas.
func blocks(runID string) bool {
	h := fnv.New32a()
	h.Write([]byte(runID))
	return h.Sum32()%2 == 0
}

// TestRandomDisconnects runs 100 concurrent streams and has each client
// go away at a random (seeded) point: while its request may still be in
// flight, as soon as the headers are in, or mid-stream after the first
// delta and some random bytes, by cancelling its request or by closing
// the body. Every agent that started must see its context cancelled with
// the DISCONNECTED cause, every handler must return
// (httptest.Server.Close waits for them), and goleak checks that nothing
// is left running.
func TestRandomDisconnects(t *testing.T) {
	const runs = 100
	const seed = 20261130
	tr := newTracker()
	r := gin.New()
	// A transformer on the group, so that transformed runs are covered.
	g := r.Group("/agents", ginagui.Transform(transformers.DenyToolCalls("internal")))
	if err := ginagui.Register(g, "/endless", endlessAgent(tr), quiet()...); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(r)
	client := srv.Client()
	defer client.CloseIdleConnections()

	rng := rand.New(rand.NewPCG(seed, 0))
	// Where a client goes away.
	const (
		early       = iota // cancelled while the request may still be in flight
		afterHeader        // cancelled as soon as the response headers are in
		midStream          // after the first delta and some random bytes more
	)
	type plan struct {
		point  int
		delay  time.Duration // early: when to cancel
		extra  int           // midStream: bytes to read after the first delta
		cancel bool          // midStream: cancel the request instead of closing the body
	}
	plans := make([]plan, runs)
	midStreams := 0
	for i := range plans {
		p := plan{point: midStream, extra: rng.IntN(4096), cancel: rng.IntN(2) == 0}
		switch r := rng.IntN(10); {
		case r < 2:
			p.point, p.delay = early, time.Duration(rng.IntN(2000))*time.Microsecond
		case r < 4:
			p.point = afterHeader
		default:
			midStreams++
		}
		plans[i] = p
	}

	var wg sync.WaitGroup
	errs := make(chan error, runs)
	for i, p := range plans {
		wg.Go(func() {
			id := "run-" + strconv.Itoa(i)
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			if p.point == early {
				stop := time.AfterFunc(p.delay, cancel)
				defer stop.Stop()
			}
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/agents/endless", strings.NewReader(string(runBody(id))))
			if err != nil {
				errs <- err
				return
			}
			req.Header.Set("Content-Type", "application/json")
			res, err := client.Do(req)
			if p.point == early {
				if err == nil {
					res.Body.Close()
				}
				return // either way the client is gone
			}
			if err != nil {
				errs <- err
				return
			}
			defer res.Body.Close()
			if p.point == afterHeader {
				cancel()
				return
			}
			br := bufio.NewReader(res.Body)
			// Up to the first delta: the agent is running.
			for {
				line, err := br.ReadString('\n')
				if err != nil {
					errs <- err
					return
				}
				if strings.Contains(line, `"TEXT_MESSAGE_CONTENT"`) {
					break
				}
			}
			// Some more; a blocked agent has sent all it will.
			n := p.extra
			if blocks(id) {
				n = min(n, br.Buffered())
			}
			if _, err := io.CopyN(io.Discard, br, int64(n)); err != nil {
				errs <- err
				return
			}
			if p.cancel {
				cancel()
			} else {
				res.Body.Close()
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// Close returns once every handler has returned, and a handler returns
	// only after its run's goroutines have exited.
	srv.Close()

	tr.mu.Lock()
	defer tr.mu.Unlock()
	// Every mid-stream client saw a delta, so its agent ran; the others'
	// agents may or may not have started before the client left.
	if len(tr.started) < midStreams || len(tr.started) > runs {
		t.Errorf("%d agents started, want between %d and %d", len(tr.started), midStreams, runs)
	}
	t.Logf("%d runs, %d agents started, %d clients left mid-stream", runs, len(tr.started), midStreams)
	for id := range tr.started {
		o, ok := tr.ended[id]
		switch {
		case !ok:
			t.Errorf("%s: the agent never returned", id)
		case !o.cancelled:
			t.Errorf("%s: the agent returned with its context live", id)
		case o.code != agui.CodeDisconnected:
			t.Errorf("%s: cancelled with cause %q, want %q", id, o.code, agui.CodeDisconnected)
		}
	}
}
