package redislog_test

import (
	"context"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/resume"
	"github.com/agui-go/agui/resume/redislog"
)

// deltaAgent streams n deltas "d1 " … "dn " at its own small pace.
func deltaAgent(n int) core.Agent[core.NoState] {
	return core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		m, err := rc.Message()
		if err != nil {
			return agui.Outcome{}, err
		}
		for i := 1; i <= n; i++ {
			if i%8 == 0 {
				time.Sleep(100 * time.Microsecond) // the agent's pace, not a synchronisation
			}
			if err := m.Delta("d" + strconv.Itoa(i) + " "); err != nil {
				return agui.Outcome{}, err
			}
		}
		return agui.Success(), m.End()
	})
}

// waitAgent says something, then waits for its run to be cancelled.
func waitAgent(started chan<- struct{}) core.Agent[core.NoState] {
	return core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		if err := rc.Say("working"); err != nil {
			return agui.Outcome{}, err
		}
		started <- struct{}{}
		<-ctx.Done()
		return agui.Outcome{}, context.Cause(ctx)
	})
}

// replica is one process's view: its own Redis client, log and handler,
// on the test's redis-server.
func replica(t *testing.T, name string, a core.Agent[core.NoState], opts ...resume.Option) string {
	t.Helper()
	return replicaOn(t, &redis.Options{Addr: redisAddr(t)}, name, a, opts...)
}

// replicaOn is a replica whose Redis client has the options co.
func replicaOn(t *testing.T, co *redis.Options, name string, a core.Agent[core.NoState], opts ...resume.Option) string {
	t.Helper()
	c := redis.NewClient(co)
	lg, err := redislog.New(c, redislog.WithPrefix(prefix(t)), redislog.WithFollowWait(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	h, err := core.NewHandler(a)
	if err != nil {
		t.Fatal(err)
	}
	rh, err := resume.New(h, lg, append([]resume.Option{resume.WithReplicaID(name)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("POST /chat", rh)
	mux.Handle("GET /chat/runs/{runId}", rh)
	mux.Handle("DELETE /chat/runs/{runId}", rh)
	srv := httptest.NewServer(mux)
	t.Cleanup(func() {
		srv.Close()
		if err := rh.Close(context.Background()); err != nil {
			t.Error(err)
		}
		c.Close()
		http.DefaultClient.CloseIdleConnections()
	})
	return srv.URL
}

func body(run string) string {
	return `{"threadId":"t-` + run + `","runId":"` + run + `","protocolVersion":"1.0","messages":[]}`
}

func do(ctx context.Context, t *testing.T, method, url, b, cursor string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, method, url, strings.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if b != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if cursor != "" {
		req.Header.Set("Last-Event-ID", cursor)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// shape is a run's event types and deltas, checked by the verifier.
func shape(t *testing.T, fs []aguitest.Frame) string {
	t.Helper()
	v := agui.NewVerifier()
	var b strings.Builder
	for i, f := range fs {
		if f.ID != uint64(i+1) {
			t.Fatalf("frame %d has id %d: events lost or repeated", i, f.ID)
		}
		ev, err := agui.DecodeEvent([]byte(f.Data))
		if err != nil {
			t.Fatal(err)
		}
		if err := v.Observe(ev); err != nil {
			t.Fatalf("verifier: %v", err)
		}
		b.WriteString(string(ev.Type()))
		if d, ok := ev.(*agui.TextMessageContent); ok {
			b.WriteString("(" + d.Delta + ")")
		}
		b.WriteByte(' ')
	}
	return b.String()
}

func TestRejoinOnAnotherReplica(t *testing.T) {
	const n = 40
	opts := []resume.Option{resume.WithDetach(time.Minute)}
	urls := []string{replica(t, "a", deltaAgent(n), opts...), replica(t, "b", deltaAgent(n), opts...)}
	ctx := context.Background()
	resp := do(ctx, t, http.MethodPost, urls[0]+"/chat", body("r0"), "")
	want := shape(t, aguitest.ReadFrames(t, resp.Body, 0))
	resp.Body.Close()

	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(i), 3))
			run := "r" + strconv.Itoa(i+1)
			cctx, cut := context.WithCancel(ctx)
			resp := do(cctx, t, http.MethodPost, urls[i%2]+"/chat", body(run), "")
			got := aguitest.ReadFrames(t, resp.Body, 1+rng.IntN(n))
			cut()
			resp.Body.Close()
			// Rejoin on the other replica, cut again, rejoin on the first.
			for k := 1; k <= 2; k++ {
				cctx, cut := context.WithCancel(ctx)
				resp := do(cctx, t, http.MethodGet, urls[(i+k)%2]+"/chat/runs/"+run, "", strconv.FormatUint(got[len(got)-1].ID, 10))
				limit := 0
				if k == 1 {
					limit = 1 + rng.IntN(n)
				}
				got = append(got, aguitest.ReadFrames(t, resp.Body, limit)...)
				cut()
				resp.Body.Close()
				if strings.Contains(got[len(got)-1].Data, `"RUN_FINISHED"`) {
					break
				}
			}
			if sh := shape(t, got); sh != want {
				t.Errorf("%s reassembled:\n got %s\nwant %s", run, sh, want)
			}
		})
	}
	wg.Wait()
}

func TestStopFromAnotherReplica(t *testing.T) {
	started := make(chan struct{}, 1)
	opts := []resume.Option{resume.WithDetach(time.Minute), resume.WithLeaseTTL(600 * time.Millisecond)}
	a := replica(t, "a", waitAgent(started), opts...)
	b := replica(t, "b", waitAgent(started), opts...)
	ctx := context.Background()
	resp := do(ctx, t, http.MethodPost, a+"/chat", body("r"), "")
	defer resp.Body.Close()
	<-started
	start := time.Now()
	del := do(ctx, t, http.MethodDelete, b+"/chat/runs/r", "", "")
	del.Body.Close()
	if del.StatusCode != http.StatusAccepted {
		t.Fatalf("DELETE on the other replica: %d", del.StatusCode)
	}
	fs := aguitest.ReadFrames(t, resp.Body, 0)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("the owner stopped after %v", d)
	}
	if last := fs[len(fs)-1].Data; !strings.Contains(last, `"code":"CANCELLED"`) {
		t.Fatalf("stopped run ends with %s", last)
	}
}

func TestOwnerDeath(t *testing.T) {
	ctx := context.Background()
	c := redis.NewClient(&redis.Options{Addr: redisAddr(t)})
	defer c.Close()
	dead, err := redislog.New(c, redislog.WithPrefix(prefix(t)))
	if err != nil {
		t.Fatal(err)
	}
	// A replica began a run, stored two events and died.
	l, _, err := dead.Begin(ctx, resume.RunMeta{RunID: "r", ThreadID: "t", Owner: "dead"}, 300*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if err := dead.Append(ctx, l, []resume.Entry{
		{Seq: 1, Data: []byte(`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`)},
		{Seq: 2, Data: []byte(`{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}`)},
	}); err != nil {
		t.Fatal(err)
	}
	b := replica(t, "b", deltaAgent(1), resume.WithLeaseTTL(300*time.Millisecond))
	start := time.Now()
	resp := do(ctx, t, http.MethodGet, b+"/chat/runs/r", "", "1")
	fs := aguitest.ReadFrames(t, resp.Body, 0)
	resp.Body.Close()
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("the lost run ended after %v", d)
	}
	if len(fs) != 2 || fs[1].ID != 3 || !strings.Contains(fs[1].Data, `"code":"RUN_LOST"`) {
		t.Fatalf("rejoin of a lost run: %+v", fs)
	}
	if err := dead.Append(ctx, l, []resume.Entry{{Seq: 4, Data: []byte(`{}`)}}); err == nil {
		t.Fatal("the dead owner could still append")
	}
}

func TestStoreDownDegradesToPlainStream(t *testing.T) {
	// A Redis nobody listens on: the run is served without resume.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1, DialTimeout: 200 * time.Millisecond})
	defer c.Close()
	lg, err := redislog.New(c)
	if err != nil {
		t.Fatal(err)
	}
	h, err := core.NewHandler(deltaAgent(3), core.WithHandlerLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	rh, err := resume.New(h, lg)
	if err != nil {
		t.Fatal(err)
	}
	defer rh.Close(context.Background())
	mux := http.NewServeMux()
	mux.Handle("POST /chat", rh)
	mux.Handle("GET /chat/runs/{runId}", rh)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	resp := do(context.Background(), t, http.MethodPost, srv.URL+"/chat", body("r"), "")
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Location") != "" ||
		strings.Contains(string(raw), "id: ") || !strings.Contains(string(raw), `"RUN_FINISHED"`) {
		t.Fatalf("degraded run: %d %q\n%s", resp.StatusCode, resp.Header.Get("Content-Location"), raw)
	}
	// A rejoin while the store is down is a 503 the client may retry,
	// with the code a stream cut by the outage ends with.
	resp = do(context.Background(), t, http.MethodGet, srv.URL+"/chat/runs/r", "", "3")
	raw, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" ||
		!strings.Contains(string(raw), `"code":"`+string(resume.CodeStoreUnavailable)+`"`) {
		t.Fatalf("rejoin with the store down: %d %s", resp.StatusCode, raw)
	}
}
