package redislog_test

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/agui-go/agui/resume"
	"github.com/agui-go/agui/resume/redislog"
)

// prefix is the test's own key prefix, fresh for each run of the test.
func prefix(t *testing.T) string {
	t.Helper()
	prefixes.mu.Lock()
	defer prefixes.mu.Unlock()
	p, ok := prefixes.m[t]
	if !ok {
		prefixes.n++
		p = "t:" + t.Name() + ":" + strconv.Itoa(prefixes.n) + ":"
		prefixes.m[t] = p
	}
	return p
}

var prefixes = struct {
	mu sync.Mutex
	n  int
	m  map[*testing.T]string
}{m: map[*testing.T]string{}}

// newLog returns a Log with a prefix of its own on the test's
// redis-server, and its client.
func newLog(t *testing.T, opts ...redislog.Option) (*redislog.Log, *redis.Client) {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: redisAddr(t)})
	t.Cleanup(func() { c.Close() })
	opts = append([]redislog.Option{redislog.WithPrefix(prefix(t))}, opts...)
	lg, err := redislog.New(c, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return lg, c
}

func entries(from, n int, terminal bool) []resume.Entry {
	out := make([]resume.Entry, n)
	for i := range out {
		out[i] = resume.Entry{Seq: uint64(from + i), Data: []byte(`{"n":` + strconv.Itoa(from+i) + `}`)}
	}
	if terminal && n > 0 {
		out[n-1].Terminal = true
	}
	return out
}

// TestLogActiveRunPerPrincipal: a thread's active run is found per
// principal; bob's run on alice's thread id neither replaces nor reveals
// hers, and sealing one leaves the other active.
func TestLogActiveRunPerPrincipal(t *testing.T) {
	ctx := context.Background()
	lg, _ := newLog(t)
	for _, r := range []resume.RunMeta{
		{RunID: "ra", ThreadID: "t", Principal: "alice", Owner: "a"},
		{RunID: "rb", ThreadID: "t", Principal: "bob", Owner: "a"},
		// A thread id and principal that would share a key if the key
		// were their concatenation.
		{RunID: "rc", ThreadID: "t}:", Principal: "", Owner: "a"},
	} {
		if _, _, err := lg.Begin(ctx, r, time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	la := resume.Lease{RunID: "ra", Owner: "a", Gen: 1}
	for p, want := range map[string]string{"alice": "ra", "bob": "rb", "mallory": ""} {
		if id, err := lg.ActiveRun(ctx, "t", p); id != want || err != nil {
			t.Fatalf("%s's active run %q %v, want %q", p, id, err, want)
		}
	}
	if err := lg.Append(ctx, la, entries(1, 1, true)); err != nil {
		t.Fatal(err)
	}
	if err := lg.Seal(ctx, la); err != nil {
		t.Fatal(err)
	}
	if id, _ := lg.ActiveRun(ctx, "t", "alice"); id != "" {
		t.Fatalf("alice's sealed run still active: %q", id)
	}
	if id, _ := lg.ActiveRun(ctx, "t", "bob"); id != "rb" {
		t.Fatalf("sealing alice's run ended bob's: %q", id)
	}
}

func TestLogAppendRead(t *testing.T) {
	ctx := context.Background()
	lg, c := newLog(t, redislog.WithRetention(time.Minute))
	l, st, err := lg.Begin(ctx, resume.RunMeta{RunID: "r", ThreadID: "t", Principal: "alice", Owner: "a"}, time.Minute)
	if err != nil || l.Gen != 1 || st.Principal != "alice" || st.LeaseExpired {
		t.Fatalf("Begin: %+v %+v %v", l, st, err)
	}
	if _, st, err := lg.Begin(ctx, resume.RunMeta{RunID: "r"}, time.Minute); !errors.Is(err, resume.ErrRunExists) || st.Principal != "alice" {
		t.Fatalf("second Begin: %v %+v", err, st)
	}
	if err := lg.Append(ctx, l, entries(1, 3, false)); err != nil {
		t.Fatal(err)
	}
	// A retried batch after an ambiguous failure is applied once.
	if err := lg.Append(ctx, l, entries(2, 3, false)); err != nil {
		t.Fatalf("overlapping retry: %v", err)
	}
	if err := lg.Append(ctx, l, entries(7, 1, false)); !errors.Is(err, resume.ErrSeqConflict) {
		t.Fatalf("gap: %v", err)
	}
	es, st, err := lg.Read(ctx, "r", 1, 10, 0)
	if err != nil || len(es) != 3 || es[0].Seq != 2 || string(es[2].Data) != `{"n":4}` || st.Last != 4 {
		t.Fatalf("Read: %v %+v %v", es, st, err)
	}
	if st.SinceRead < 0 {
		t.Error("a read was not recorded")
	}
	if _, _, err := lg.Read(ctx, "r", 9, 10, 0); !errors.Is(err, resume.ErrCursorAhead) {
		t.Fatalf("cursor ahead: %v", err)
	}
	if _, _, err := lg.Read(ctx, "nope", 0, 10, 0); !errors.Is(err, resume.ErrRunNotFound) {
		t.Fatalf("unknown run: %v", err)
	}
	if id, err := lg.ActiveRun(ctx, "t", "alice"); id != "r" || err != nil {
		t.Fatalf("active run %q %v", id, err)
	}
	if err := lg.Stop(ctx, "r"); err != nil {
		t.Fatal(err)
	}
	if st, err := lg.Renew(ctx, l, time.Minute); err != nil || !st.Stopped {
		t.Fatalf("Renew after Stop: %+v %v", st, err)
	}
	if err := lg.Append(ctx, l, entries(5, 1, true)); err != nil {
		t.Fatal(err)
	}
	if err := lg.Seal(ctx, l); err != nil {
		t.Fatal(err)
	}
	if id, _ := lg.ActiveRun(ctx, "t", "alice"); id != "" {
		t.Fatalf("sealed run still active: %q", id)
	}
	es, st, err = lg.Read(ctx, "r", 4, 10, time.Second)
	if err != nil || len(es) != 1 || !es[0].Terminal || !st.Sealed {
		t.Fatalf("terminal entry: %v %+v %v", es, st, err)
	}
	if err := lg.Append(ctx, l, entries(6, 1, false)); !errors.Is(err, resume.ErrFenced) {
		t.Fatalf("append after seal: %v", err)
	}
	// The sealed run's keys expire after the retention time.
	for _, k := range []string{prefix(t) + "{r}:meta", prefix(t) + "{r}:log"} {
		if ttl := c.PTTL(ctx, k).Val(); ttl <= 0 || ttl > time.Minute {
			t.Errorf("%s expires in %v", k, ttl)
		}
	}
}

func TestLogFencing(t *testing.T) {
	ctx := context.Background()
	lg, _ := newLog(t)
	if _, _, err := lg.Begin(ctx, resume.RunMeta{RunID: "live", Owner: "a"}, time.Minute); err != nil {
		t.Fatal(err)
	}
	if _, _, err := lg.Takeover(ctx, "live", "b", time.Minute); !errors.Is(err, resume.ErrLeaseHeld) {
		t.Fatalf("takeover of a live lease: %v", err)
	}
	// A lease of 0 has expired at once, by Redis's clock.
	old, _, err := lg.Begin(ctx, resume.RunMeta{RunID: "r", Owner: "a"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := lg.Status(ctx, "r"); !st.LeaseExpired {
		t.Fatal("lease not expired")
	}
	l2, st, err := lg.Takeover(ctx, "r", "b", time.Minute)
	if err != nil || l2.Gen != 2 || st.Owner != "b" {
		t.Fatalf("takeover: %+v %+v %v", l2, st, err)
	}
	if err := lg.Append(ctx, old, entries(1, 1, false)); !errors.Is(err, resume.ErrFenced) {
		t.Fatalf("stale owner appended: %v", err)
	}
	if _, err := lg.Renew(ctx, old, time.Minute); !errors.Is(err, resume.ErrFenced) {
		t.Fatalf("stale owner renewed: %v", err)
	}
	if err := lg.Append(ctx, l2, entries(1, 1, true)); err != nil {
		t.Fatal(err)
	}
}

func TestLogMaxEvents(t *testing.T) {
	ctx := context.Background()
	lg, _ := newLog(t, redislog.WithMaxEvents(2))
	l, _, err := lg.Begin(ctx, resume.RunMeta{RunID: "r"}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if err := lg.Append(ctx, l, entries(1, 3, false)); !errors.Is(err, resume.ErrLogFull) {
		t.Fatalf("over the limit: %v", err)
	}
	if err := lg.Append(ctx, l, entries(1, 2, false)); err != nil {
		t.Fatal(err)
	}
	if err := lg.Append(ctx, l, entries(3, 1, true)); err != nil {
		t.Fatalf("the terminal entry of a full run: %v", err)
	}
}

func TestLogReadWaitsForAppend(t *testing.T) {
	ctx := context.Background()
	lg, _ := newLog(t, redislog.WithFollowWait(5*time.Second))
	l, _, err := lg.Begin(ctx, resume.RunMeta{RunID: "r"}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan []resume.Entry)
	go func() {
		es, _, err := lg.Read(ctx, "r", 0, 10, time.Minute)
		if err != nil {
			t.Error(err)
		}
		got <- es
	}()
	// Whether the append lands before or during the blocking read, the
	// reader gets it.
	if err := lg.Append(ctx, l, entries(1, 2, false)); err != nil {
		t.Fatal(err)
	}
	if es := <-got; len(es) != 2 || es[1].Seq != 2 {
		t.Fatalf("woken with %v", es)
	}
	start := time.Now()
	es, _, err := lg.Read(ctx, "r", 2, 10, 50*time.Millisecond)
	if err != nil || len(es) != 0 || time.Since(start) > 2*time.Second {
		t.Fatalf("empty wait: %v %v after %v", es, err, time.Since(start))
	}
}

func TestNewRejectsBadOptions(t *testing.T) {
	c := redis.NewClient(&redis.Options{Addr: redisAddr(t)})
	defer c.Close()
	if _, err := redislog.New(nil); err == nil {
		t.Error("nil client accepted")
	}
	for _, o := range []redislog.Option{redislog.WithIdleTTL(0), redislog.WithRetention(0), redislog.WithFollowWait(0), redislog.WithMaxEvents(0)} {
		if _, err := redislog.New(c, o); err == nil {
			t.Error("out of range option accepted")
		}
	}
}
