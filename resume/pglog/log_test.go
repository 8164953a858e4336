package pglog_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/agui-go/agui/resume"
	"github.com/agui-go/agui/resume/logtest"
	"github.com/agui-go/agui/resume/pglog"
)

// newPool returns a pool on a fresh, migrated database of t's own.
func newPool(t testing.TB) *pgxpool.Pool {
	t.Helper()
	pool, err := pgxpool.New(t.Context(), pg.DB(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	if err := pglog.Migrate(t.Context(), pool); err != nil {
		t.Fatal(err)
	}
	return pool
}

func newLog(t testing.TB, pool *pgxpool.Pool, opts ...pglog.Option) *pglog.Log {
	t.Helper()
	lg, err := pglog.New(pool, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = lg.Close() })
	return lg
}

// TestLogConformance runs the run log conformance kit, each check on a
// database of its own.
func TestLogConformance(t *testing.T) {
	logtest.Run(t, func(t *testing.T) resume.Log { return newLog(t, newPool(t)) })
}

// Routes sharing a database keep their runs apart.
func TestLogRoutes(t *testing.T) {
	pool := newPool(t)
	a, b := newLog(t, pool, pglog.WithRoute("a")), newLog(t, pool, pglog.WithRoute("b"))
	ctx := t.Context()
	la, _, err := a.Begin(ctx, resume.RunMeta{RunID: "r", ThreadID: "t", Owner: "x"}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := b.Begin(ctx, resume.RunMeta{RunID: "r", ThreadID: "t", Owner: "y"}, time.Minute); err != nil {
		t.Fatalf("the same run id on another route: %v", err)
	}
	if err := a.Append(ctx, la, logtest.Entries(1, 3, false)); err != nil {
		t.Fatal(err)
	}
	if st, err := b.Status(ctx, "r"); err != nil || st.Last != 0 || st.Owner != "y" {
		t.Fatalf("route b's run: %+v %v", st, err)
	}
}

// A run expires its idle time after its last append, a sealed one its
// retention after its end; an expired run is gone for every call, and
// its id may begin again.
func TestLogExpiry(t *testing.T) {
	pool := newPool(t)
	lg := newLog(t, pool, pglog.WithIdleTTL(time.Millisecond), pglog.WithRetention(time.Millisecond))
	ctx := t.Context()
	l, _, err := lg.Begin(ctx, resume.RunMeta{RunID: "r", ThreadID: "t", Owner: "a"}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	// The database's clock moves on by itself: wait for it, bounded.
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := lg.Status(ctx, "r")
		if errors.Is(err, resume.ErrRunNotFound) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the idle run never expired: %v", err)
		}
	}
	if err := lg.Append(ctx, l, logtest.Entries(1, 1, false)); !errors.Is(err, resume.ErrRunNotFound) {
		t.Fatalf("append to an expired run: %v, want ErrRunNotFound", err)
	}
	if _, _, err := lg.Begin(ctx, resume.RunMeta{RunID: "r", ThreadID: "t", Owner: "b"}, time.Minute); err != nil {
		t.Fatalf("begin of an expired run's id: %v", err)
	}
	var n int
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM agui_run_log_runs").Scan(&n); err != nil || n != 1 {
		t.Fatalf("%d runs stored (%v), want the new one only", n, err)
	}
}

// Many readers waiting on one run are all woken by its append, through
// the one listening connection, which is not the pool's: the readers
// hold none of its connections.
func TestLogManyFollowers(t *testing.T) {
	pool := newPool(t)
	lg := newLog(t, pool, pglog.WithFollowWait(time.Minute))
	ctx := t.Context()
	l, _, err := lg.Begin(ctx, resume.RunMeta{RunID: "r", ThreadID: "t", Owner: "a"}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	const n = 20
	var wg sync.WaitGroup
	start := time.Now()
	for range n {
		wg.Go(func() {
			es, _, err := lg.Read(ctx, "r", 0, 10, time.Minute)
			if err != nil || len(es) != 1 {
				t.Errorf("a follower read %v %v", es, err)
			}
		})
	}
	if err := lg.Append(ctx, l, logtest.Entries(1, 1, false)); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if d := time.Since(start); d > 30*time.Second {
		t.Fatalf("the followers were woken after %v", d)
	}
	if st := pool.Stat(); st.AcquiredConns() != 0 {
		t.Fatalf("%d connections still out of the pool", st.AcquiredConns())
	}
}
