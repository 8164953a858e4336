package redisstore_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/internal/redistest"
	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/loop/redisstore"
	"github.com/agui-go/agui/loop/storetest"
)

func client(t testing.TB, srv *redistest.Server) *redis.Client {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: srv.Addr(), MaxRetries: -1, DialTimeout: time.Second, ContextTimeoutEnabled: true, DialerRetries: 1})
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func newStore(t testing.TB, c redis.UniversalClient, opts ...redisstore.Option) *redisstore.Store {
	t.Helper()
	s, err := redisstore.New(c, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Every subtest gets its own key prefix on one real redis-server.
func TestConformance(t *testing.T) {
	c := client(t, redistest.Start(t))
	var n atomic.Int64
	storetest.Run(t, func(t *testing.T) loop.Store {
		return newStore(t, c, redisstore.WithKeyPrefix(fmt.Sprintf("conf%d:", n.Add(1))))
	})
}

func TestKeysAndExpiry(t *testing.T) {
	c := client(t, redistest.Start(t))
	s := newStore(t, c, redisstore.WithKeyPrefix("app:"), redisstore.WithIdleTTL(time.Hour), redisstore.WithAwaitingTTL(48*time.Hour))
	ctx := t.Context()
	ttl := func(thread string) time.Duration {
		d, err := c.PTTL(ctx, "app:{"+thread+"}").Result()
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	near := func(got, want time.Duration) bool { return got <= want && got > want-time.Minute }
	v, err := s.Save(ctx, &loop.Checkpoint{ThreadID: "t", Status: loop.StatusRunning, LeaseUntil: time.Now().Add(5 * time.Minute)}, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if d := ttl("t"); !near(d, time.Hour+5*time.Minute) {
		t.Fatalf("running thread expires in %v, want its lease plus the idle TTL", d)
	}
	if v, err = s.Save(ctx, &loop.Checkpoint{ThreadID: "t", Status: loop.StatusAwaitingApproval}, v, 0); err != nil {
		t.Fatal(err)
	}
	if d := ttl("t"); !near(d, 48*time.Hour) {
		t.Fatalf("awaiting thread expires in %v, want 48h", d)
	}
	if v, err = s.Save(ctx, &loop.Checkpoint{ThreadID: "t", Status: loop.StatusIdle}, v, 0); err != nil {
		t.Fatal(err)
	}
	if d := ttl("t"); !near(d, time.Hour) {
		t.Fatalf("idle thread expires in %v, want 1h", d)
	}
	forever := newStore(t, c, redisstore.WithKeyPrefix("app:"), redisstore.WithIdleTTL(0))
	if _, err = forever.Save(ctx, &loop.Checkpoint{ThreadID: "t", Status: loop.StatusIdle}, v, 0); err != nil {
		t.Fatal(err)
	}
	if d := ttl("t"); d != -1 {
		t.Fatalf("with IdleTTL(0) the thread expires in %v, want never (-1)", d)
	}
	keys, err := c.Keys(ctx, "*").Result()
	slices.Sort(keys)
	if want := []string{"app:threads:{o:}:live", "app:{t}"}; err != nil || !slices.Equal(keys, want) {
		t.Fatalf("keys %v %v, want %v: one hash per thread and its owner's list", keys, err, want)
	}
	if d, err := c.PTTL(ctx, keys[0]).Result(); err != nil || d != -1 {
		t.Fatalf("with IdleTTL(0) the owner's list expires in %v (%v), want never (-1)", d, err)
	}
}

// An expired thread is gone: the store answers ErrNotFound.
func TestExpiredThreadIsGone(t *testing.T) {
	srv := redistest.Start(t)
	c := client(t, srv)
	s := newStore(t, c, redisstore.WithIdleTTL(time.Hour))
	ctx := t.Context()
	if _, err := s.Save(ctx, &loop.Checkpoint{ThreadID: "t", Status: loop.StatusIdle}, 0, 0); err != nil {
		t.Fatal(err)
	}
	// Redis's clock cannot be moved: expire the key at a past instant.
	if err := c.PExpireAt(ctx, s.Key("t"), time.Unix(1, 0)).Err(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Load(ctx, "t"); !errors.Is(err, loop.ErrNotFound) {
		t.Fatalf("load of an expired thread: %v, want ErrNotFound", err)
	}
}

// Redis down: every call fails with ErrUnavailable and a message without
// the address; a loop run fails with CHECKPOINT_ERROR before its tool
// runs; once Redis is back the next run works.
func TestUnavailable(t *testing.T) {
	srv := redistest.Start(t)
	c := client(t, srv)
	s := newStore(t, c)
	var runs atomic.Int64
	tool, err := loop.NewTool("act", "", func(ctx context.Context, in struct{}) (string, error) { runs.Add(1); return "done", nil })
	if err != nil {
		t.Fatal(err)
	}
	agent, err := loop.New(loop.Script(loop.Turn{Calls: []loop.ScriptedCall{{ID: "c1", Name: "act", Args: `{}`}}}, loop.Turn{Text: "ok"}),
		loop.WithTools(tool), loop.WithCheckpoints(s))
	if err != nil {
		t.Fatal(err)
	}
	srv.Stop()
	ctx := t.Context()
	_, _, err = s.Load(ctx, "t")
	if !errors.Is(err, redisstore.ErrUnavailable) || strings.Contains(err.Error(), "127.0.0.1") {
		t.Fatalf("load with Redis down: %v, want ErrUnavailable without the address", err)
	}
	if _, err := s.Save(ctx, &loop.Checkpoint{ThreadID: "t"}, 0, 0); !errors.Is(err, redisstore.ErrUnavailable) {
		t.Fatalf("save with Redis down: %v", err)
	}
	if err := s.Delete(ctx, "t"); !errors.Is(err, redisstore.ErrUnavailable) {
		t.Fatalf("delete with Redis down: %v", err)
	}
	in := loop.Input{ThreadID: "t", Messages: []agui.Message{loop.UserText("go")}}
	_, err = agent.Execute(ctx, in)
	var ce *agui.Error
	if !errors.As(err, &ce) || ce.Code != loop.CodeCheckpoint || runs.Load() != 0 {
		t.Fatalf("run with Redis down: %v, tool ran %d times; want CHECKPOINT_ERROR and no run", err, runs.Load())
	}
	srv.Restart()
	res, err := agent.Execute(ctx, in)
	if err != nil || res.FinishReason != loop.FinishStop || runs.Load() != 1 {
		t.Fatalf("run with Redis back: %v %v, tool ran %d times", res.FinishReason, err, runs.Load())
	}
}

// With appendonly yes and appendfsync always, a paused approval survives
// Redis being killed and restarted between the pause and the resume.
func TestRestartWithAOFKeepsPendingApproval(t *testing.T) {
	srv := redistest.Start(t, redistest.AppendOnly())
	c := client(t, srv)
	s := newStore(t, c)
	var runs atomic.Int64
	tool, err := loop.NewTool("book", "", func(ctx context.Context, in struct{}) (string, error) { runs.Add(1); return "booked", nil })
	if err != nil {
		t.Fatal(err)
	}
	agent, err := loop.New(loop.Script(loop.Turn{Calls: []loop.ScriptedCall{{ID: "c1", Name: "book", Args: `{}`}}}, loop.Turn{Text: "ok"}),
		loop.WithTools(tool), loop.WithCheckpoints(s), loop.WithNeedsApproval(func(loop.Call) bool { return true }))
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	res, err := agent.Execute(ctx, loop.Input{ThreadID: "t", Messages: []agui.Message{loop.UserText("book")}})
	if err != nil || res.FinishReason != loop.FinishAwaitingApproval {
		t.Fatalf("first run: %v %v", res.FinishReason, err)
	}
	srv.Kill() // SIGKILL: only what is in the append-only file survives
	srv.Restart()
	answer := agui.ResumeEntry{InterruptID: res.Interrupt.ID, Status: agui.ResumeResolved, Payload: map[string]any{"approved": true}}
	res, err = agent.Execute(ctx, loop.Input{ThreadID: "t", Resume: []agui.ResumeEntry{answer}})
	if err != nil || res.FinishReason != loop.FinishStop || runs.Load() != 1 {
		t.Fatalf("resume after the restart: %v %v, tool ran %d times", res.FinishReason, err, runs.Load())
	}
}

// A call blocked on a Redis that does not answer ends with its context.
func TestContextDeadlineWhileRedisHangs(t *testing.T) {
	srv := redistest.Start(t)
	c := client(t, srv)
	s := newStore(t, c)
	if _, err := s.Save(t.Context(), &loop.Checkpoint{ThreadID: "t"}, 0, 0); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(srv.Pid(), syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = syscall.Kill(srv.Pid(), syscall.SIGCONT) }()
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	_, _, err := s.Load(ctx, "t")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("load from a hung Redis: %v, want context.DeadlineExceeded", err)
	}
}

// The same kit on a three-master Redis Cluster through a ClusterClient:
// each thread's hash lives in the slot of its {threadID} hash tag.
func TestConformanceCluster(t *testing.T) {
	cluster := redistest.StartCluster(t, 3)
	c := redis.NewClusterClient(&redis.ClusterOptions{Addrs: cluster.Addrs(), ContextTimeoutEnabled: true})
	t.Cleanup(func() { _ = c.Close() })
	var n atomic.Int64
	storetest.Run(t, func(t *testing.T) loop.Store {
		return newStore(t, c, redisstore.WithKeyPrefix(fmt.Sprintf("cluster%d:", n.Add(1))))
	})
	// The threads were spread over the masters.
	var masters atomic.Int64
	err := c.ForEachMaster(t.Context(), func(ctx context.Context, m *redis.Client) error {
		if keys, err := m.DBSize(ctx).Result(); err != nil {
			return err
		} else if keys > 0 {
			masters.Add(1)
		}
		return nil
	})
	if err != nil || masters.Load() < 2 {
		t.Fatalf("threads on %d masters (%v), want them spread", masters.Load(), err)
	}
}

// After runs, approvals, resumes and deletes with the default options,
// every key the store wrote has a TTL: a client that never comes back
// pins nothing in Redis forever.
func TestEveryKeyHasTTL(t *testing.T) {
	c := client(t, redistest.Start(t))
	s := newStore(t, c)
	tool, err := loop.NewTool("book", "", func(ctx context.Context, in struct{}) (string, error) { return "booked", nil })
	if err != nil {
		t.Fatal(err)
	}
	agent, err := loop.New(loop.Script(loop.Turn{Calls: []loop.ScriptedCall{{ID: "c1", Name: "book", Args: `{}`}}}, loop.Turn{Text: "ok"}),
		loop.WithTools(tool), loop.WithCheckpoints(s), loop.WithNeedsApproval(func(loop.Call) bool { return true }))
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	for i := range 5 {
		thread := fmt.Sprint("t", i)
		res, err := agent.Execute(ctx, loop.Input{ThreadID: thread, Messages: []agui.Message{loop.UserText("book")}})
		if err != nil || res.FinishReason != loop.FinishAwaitingApproval {
			t.Fatalf("run %d: %v %v", i, res.FinishReason, err)
		}
		if i%2 == 0 { // some answered, some left waiting
			answer := agui.ResumeEntry{InterruptID: res.Interrupt.ID, Status: agui.ResumeResolved, Payload: map[string]any{"approved": true}}
			if _, err := agent.Execute(ctx, loop.Input{ThreadID: thread, Resume: []agui.ResumeEntry{answer}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := s.Save(ctx, &loop.Checkpoint{ThreadID: "running", Status: loop.StatusRunning, LeaseUntil: time.Now().Add(-time.Hour)}, 0, 0); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, "t1"); err != nil {
		t.Fatal(err)
	}
	keys, err := c.Keys(ctx, "*").Result()
	if err != nil || len(keys) != 6 || !slices.Contains(keys, "agui:loop:threads:{o:}:live") {
		t.Fatalf("keys %v %v, want the 5 threads kept and their owner's list", keys, err)
	}
	for _, k := range keys {
		if d, err := c.PTTL(ctx, k).Result(); err != nil || d <= 0 {
			t.Fatalf("key %s has TTL %v (%v), want one", k, d, err)
		}
	}
}

// Versions never repeat after an expiry either: a writer holding the
// expired thread's version cannot overwrite the thread created again.
func TestVersionsNeverRepeatAfterExpiry(t *testing.T) {
	c := client(t, redistest.Start(t))
	s := newStore(t, c)
	ctx := t.Context()
	var v int64
	for range 3 {
		var err error
		if v, err = s.Save(ctx, &loop.Checkpoint{ThreadID: "t", Status: loop.StatusIdle}, v, 0); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.PExpireAt(ctx, s.Key("t"), time.Unix(1, 0)).Err(); err != nil {
		t.Fatal(err)
	}
	nv := int64(0)
	for range 5 {
		var err error
		if nv, err = s.Save(ctx, &loop.Checkpoint{ThreadID: "t", Status: loop.StatusIdle, Steps: 1}, nv, 0); err != nil {
			t.Fatal(err)
		}
		if nv <= v {
			t.Fatalf("version %d after expiry, not past the expired thread's %d", nv, v)
		}
		if _, err := s.Save(ctx, &loop.Checkpoint{ThreadID: "t"}, v, 0); !errors.Is(err, loop.ErrConflict) {
			t.Fatalf("stale writer over the expired version %d: %v, want ErrConflict", v, err)
		}
	}
}

// A running checkpoint's key lives what is left of its lease, read by
// Redis's clock (Store.Now), plus WithIdleTTL, whatever the saving process's
// clock says: an hour-long lease keeps the key about an hour and a
// minute, one that already ran out a minute.
func TestRunningKeyLivesItsLeaseByRedisClock(t *testing.T) {
	c := client(t, redistest.Start(t))
	s := newStore(t, c, redisstore.WithIdleTTL(time.Minute))
	ctx := t.Context()
	now, err := s.Now(ctx, "held")
	if err != nil {
		t.Fatal(err)
	}
	for thread, lease := range map[string]time.Duration{"held": time.Hour, "lapsed": -time.Hour} {
		if _, err := s.Save(ctx, &loop.Checkpoint{ThreadID: thread, Status: loop.StatusRunning, LeaseUntil: now.Add(lease)}, 0, 0); err != nil {
			t.Fatal(err)
		}
		want := time.Minute + max(lease, 0)
		d, err := c.PTTL(ctx, s.Key(thread)).Result()
		if err != nil || d > want || d < want-10*time.Second {
			t.Fatalf("%s: TTL %v (%v), want about %v", thread, d, err, want)
		}
	}
}

// A thread that expired leaves its owner's list at the next listing, and
// the list itself expires after the longest TTL (plus an hour for a
// lease) since its last write.
func TestThreadListDropsExpired(t *testing.T) {
	c := client(t, redistest.Start(t))
	s := newStore(t, c, redisstore.WithIdleTTL(time.Hour), redisstore.WithAwaitingTTL(2*time.Hour))
	ctx := t.Context()
	for _, id := range []string{"a", "b"} {
		if _, err := s.Save(ctx, &loop.Checkpoint{ThreadID: id, Owner: "ann", Status: loop.StatusIdle}, 0, 0); err != nil {
			t.Fatal(err)
		}
	}
	list := "agui:loop:threads:{o:ann}:live"
	if d, err := c.PTTL(ctx, list).Result(); err != nil || d > 3*time.Hour || d < 3*time.Hour-time.Minute {
		t.Fatalf("the owner's list expires in %v (%v), want 3h", d, err)
	}
	if err := c.PExpireAt(ctx, s.Key("a"), time.Unix(1, 0)).Err(); err != nil {
		t.Fatal(err)
	}
	page, err := s.Threads(ctx, "ann", loop.ThreadQuery{Limit: 10})
	if err != nil || len(page.Threads) != 1 || page.Threads[0].ID != "b" {
		t.Fatalf("ann's threads after a expired: %+v %v, want b alone", page, err)
	}
	if ids, err := c.ZRange(ctx, list, 0, -1).Result(); err != nil || !slices.Equal(ids, []string{"b"}) {
		t.Fatalf("ann's list holds %v (%v), want [b]", ids, err)
	}
}

// A thread archived while a save listed it in the unarchived list (the
// two writes are not one script) is skipped there and moved to the
// archived list by the next listing.
func TestThreadListRepairsArchivedRace(t *testing.T) {
	c := client(t, redistest.Start(t))
	s := newStore(t, c)
	ctx := t.Context()
	for _, id := range []string{"a", "b", "c"} {
		if _, err := s.Save(ctx, &loop.Checkpoint{ThreadID: id, Owner: "ann", Status: loop.StatusIdle}, 0, 0); err != nil {
			t.Fatal(err)
		}
	}
	// b's flag set as UpdateThread sets it, its list entry left behind.
	if err := c.HSet(ctx, s.Key("b"), "a", "1").Err(); err != nil {
		t.Fatal(err)
	}
	page, err := s.Threads(ctx, "ann", loop.ThreadQuery{Limit: 10})
	if err != nil || len(page.Threads) != 2 || page.Threads[0].ID != "c" || page.Threads[1].ID != "a" {
		t.Fatalf("unarchived threads: %+v %v, want c and a", page, err)
	}
	page, err = s.Threads(ctx, "ann", loop.ThreadQuery{Limit: 10, Archived: true})
	if err != nil || len(page.Threads) != 1 || page.Threads[0].ID != "b" || !page.Threads[0].Archived {
		t.Fatalf("archived threads: %+v %v, want b", page, err)
	}
}
