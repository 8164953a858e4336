package redislog_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/agui-go/agui/aguitest"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/internal/redistest"
	"github.com/agui-go/agui/resume"
	"github.com/agui-go/agui/resume/logtest"
	"github.com/agui-go/agui/resume/redislog"
)

// waitFor polls another process's readiness, for at most 20 s.
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond) // waiting for another process
	}
}

// TestLogOnRedisCluster runs every operation of the log, and a resumable
// route, on a three-node Redis Cluster: a script touches one slot only,
// whatever the run and thread ids, and every key it leaves has a TTL.
func TestLogOnRedisCluster(t *testing.T) {
	addrs := redistest.StartCluster(t, 3).Addrs()
	ctx := context.Background()
	c := redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs})
	defer c.Close()
	const pfx = "agui:cluster:"
	lg, err := redislog.New(c, redislog.WithPrefix(pfx), redislog.WithFollowWait(50*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{"a", "b}c", "}x", "{y}", "~7d78", "", "run with spaces"}
	for i := range 20 {
		ids = append(ids, "r"+strconv.Itoa(i))
	}
	for i, id := range ids {
		run := id
		if run == "" {
			run = "empty-thread"
		}
		thread := "t-" + strconv.Itoa(i) + id
		if id == "" {
			thread = ""
		}
		l, _, err := lg.Begin(ctx, resume.RunMeta{RunID: run, ThreadID: thread, Owner: "a"}, 30*time.Millisecond)
		if err != nil {
			t.Fatalf("Begin %q: %v", run, err)
		}
		if _, _, err := lg.Begin(ctx, resume.RunMeta{RunID: run, ThreadID: thread}, time.Second); !errors.Is(err, resume.ErrRunExists) {
			t.Fatalf("second Begin %q: %v", run, err)
		}
		if thread != "" {
			if got, err := lg.ActiveRun(ctx, thread, ""); err != nil || got != run {
				t.Fatalf("ActiveRun %q: %q %v", thread, got, err)
			}
		}
		if err := lg.Append(ctx, l, logtest.Entries(1, 2, false)); err != nil {
			t.Fatalf("Append %q: %v", run, err)
		}
		if _, err := lg.Renew(ctx, l, 30*time.Millisecond); err != nil {
			t.Fatalf("Renew %q: %v", run, err)
		}
		if es, _, err := lg.Read(ctx, run, 2, 10, 10*time.Millisecond); err != nil || len(es) != 0 {
			t.Fatalf("waiting Read %q: %v %v", run, es, err)
		}
		if err := lg.Stop(ctx, run); err != nil {
			t.Fatalf("Stop %q: %v", run, err)
		}
		waitFor(t, "the lease to end", func() bool {
			st, err := lg.Status(ctx, run)
			return err == nil && st.LeaseExpired
		})
		l2, _, err := lg.Takeover(ctx, run, "b", time.Second)
		if err != nil {
			t.Fatalf("Takeover %q: %v", run, err)
		}
		if err := lg.Append(ctx, l2, logtest.Entries(3, 1, true)); err != nil {
			t.Fatalf("Append after takeover %q: %v", run, err)
		}
		if err := lg.Seal(ctx, l2); err != nil {
			t.Fatalf("Seal %q: %v", run, err)
		}
		if es, st, err := lg.Read(ctx, run, 0, 10, 0); err != nil || len(es) != 3 || !st.Sealed || !st.Stopped {
			t.Fatalf("Read %q: %d entries, %+v, %v", run, len(es), st, err)
		}
		if thread != "" {
			if got, err := lg.ActiveRun(ctx, thread, ""); err != nil || got != "" {
				t.Fatalf("ActiveRun of a sealed run's thread %q: %q %v", thread, got, err)
			}
		}
	}

	// A resumable route on the cluster.
	h, err := core.NewHandler(deltaAgent(20))
	if err != nil {
		t.Fatal(err)
	}
	rh, err := resume.New(h, lg, resume.WithDetach(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("POST /chat", rh)
	mux.Handle("GET /chat/runs/{runId}", rh)
	srv := httptest.NewServer(mux)
	defer func() {
		srv.Close()
		if err := rh.Close(ctx); err != nil {
			t.Error(err)
		}
		http.DefaultClient.CloseIdleConnections()
	}()
	for i := range 5 {
		run := "http" + strconv.Itoa(i)
		resp := do(ctx, t, http.MethodPost, srv.URL+"/chat", body(run), "")
		fs := aguitest.ReadFrames(t, resp.Body, 0)
		resp.Body.Close()
		if sh := shape(t, fs); !strings.HasSuffix(sh, "RUN_FINISHED ") || resp.Header.Get("Content-Location") == "" {
			t.Fatalf("run %s on the cluster: %s", run, sh)
		}
	}

	// Every key left has a TTL. A run's route ends the run after its
	// client has read RUN_FINISHED, so a key the scan found may be gone
	// by its PTTL (-2: no such key): that one is not left.
	var keys atomic.Int64 // ForEachMaster calls on all masters at once
	err = c.ForEachMaster(ctx, func(ctx context.Context, n *redis.Client) error {
		iter := n.Scan(ctx, 0, pfx+"*", 100).Iterator()
		for iter.Next(ctx) {
			ttl, err := n.PTTL(ctx, iter.Val()).Result()
			if err == nil && ttl == -2 {
				continue
			}
			keys.Add(1)
			if err != nil || ttl <= 0 {
				return fmt.Errorf("key %q has TTL %v (%v)", iter.Val(), ttl, err)
			}
		}
		return iter.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	if keys.Load() == 0 {
		t.Fatal("no keys found on the cluster")
	}
}
