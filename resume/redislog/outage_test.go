package redislog_test

import (
	"context"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/internal/redistest"
	"github.com/agui-go/agui/resume"
	"github.com/agui-go/agui/resume/redislog"
)

// gatedAgent says something, reports it started, waits for go (or its
// run's end), then finishes.
func gatedAgent(started chan<- struct{}, proceed <-chan struct{}) core.Agent[core.NoState] {
	return core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		if err := rc.Say("working"); err != nil {
			return agui.Outcome{}, err
		}
		started <- struct{}{}
		select {
		case <-proceed:
		case <-ctx.Done():
			return agui.Outcome{}, context.Cause(ctx)
		}
		return agui.Success(), rc.Say("done")
	})
}

// silentAfter is a Redis client's options for the server at addr, giving
// up on a silent server after d.
func silentAfter(addr string, d time.Duration) *redis.Options {
	return &redis.Options{Addr: addr, ReadTimeout: d, WriteTimeout: d, DialTimeout: d, MaxRetries: -1, ContextTimeoutEnabled: true}
}

// TestRedisOutageEndsEveryStreamCoded: while the run's Redis is stopped
// (SIGSTOP: it holds its data and answers nothing), the owner's stream and
// a follower's on another replica both end, within a bounded time, with a
// RUN_ERROR of code STORE_UNAVAILABLE. When Redis is back, the run, whose
// owner is alive, goes on: a rejoin finds it finishing, not RUN_LOST,
// though its lease ran out during the outage.
func TestRedisOutageEndsEveryStreamCoded(t *testing.T) {
	srv := redistest.Start(t)
	addr := srv.Addr()
	resumed := false
	defer func() {
		if !resumed {
			_ = syscall.Kill(srv.Pid(), syscall.SIGCONT)
		}
	}()
	started, proceed := make(chan struct{}, 1), make(chan struct{})
	opts := []resume.Option{resume.WithDetach(time.Minute), resume.WithLeaseTTL(300 * time.Millisecond)}
	a := replicaOn(t, silentAfter(addr, 300*time.Millisecond), "a", gatedAgent(started, proceed), opts...)
	b := replicaOn(t, silentAfter(addr, 300*time.Millisecond), "b", gatedAgent(started, proceed), opts...)
	ctx := context.Background()
	owner := do(ctx, t, http.MethodPost, a+"/chat", body("r"), "")
	defer owner.Body.Close()
	<-started
	first := aguitest.ReadFrames(t, owner.Body, 2) // RUN_STARTED, the message's start
	follower := do(ctx, t, http.MethodGet, b+"/chat/runs/r", "", "1")
	defer follower.Body.Close()
	if got := aguitest.ReadFrames(t, follower.Body, 1); len(got) != 1 || got[0].ID != 2 {
		t.Fatalf("follower's first frames: %+v", got)
	}

	if err := syscall.Kill(srv.Pid(), syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for name, resp := range map[string]*http.Response{"owner": owner, "follower": follower} {
		rest := aguitest.ReadFrames(t, resp.Body, 0)
		if len(rest) == 0 {
			t.Fatalf("the %s's stream ended with no terminal event", name)
		}
		last := rest[len(rest)-1]
		if last.ID != 0 || !strings.Contains(last.Data, `"RUN_ERROR"`) || !strings.Contains(last.Data, `"code":"`+string(resume.CodeStoreUnavailable)+`"`) {
			t.Fatalf("the %s's stream ended with %+v, want a RUN_ERROR %s without an id", name, last, resume.CodeStoreUnavailable)
		}
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the streams ended %v after the outage began", d)
	}

	// The outage outlasts the lease; then Redis is back.
	time.Sleep(time.Second) // the outage's length, not a synchronisation
	if err := syscall.Kill(srv.Pid(), syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	resumed = true
	rejoin := do(ctx, t, http.MethodGet, b+"/chat/runs/r", "", "2")
	defer rejoin.Body.Close()
	if rejoin.StatusCode != http.StatusOK {
		t.Fatalf("rejoin after the outage: %d", rejoin.StatusCode)
	}
	close(proceed)
	rest := aguitest.ReadFrames(t, rejoin.Body, 0)
	all := append(first, rest...)
	if sh := shape(t, all); !strings.HasSuffix(sh, "RUN_FINISHED ") {
		t.Fatalf("the run after the outage: %s", sh)
	}
	// Its owner sealed it, though its first connections to Redis broke.
	c := redis.NewClient(&redis.Options{Addr: addr})
	defer c.Close()
	lg, err := redislog.New(c, redislog.WithPrefix(prefix(t)))
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the run to be sealed", func() bool {
		st, err := lg.Status(ctx, "r")
		return err == nil && st.Sealed
	})
}
