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
	"github.com/agui-go/agui/resume/logtest"
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

// TestLogRetention: a sealed run's keys expire after the retention time
// (resume/logtest checks the operations themselves).
func TestLogRetention(t *testing.T) {
	ctx := context.Background()
	lg, c := newLog(t, redislog.WithRetention(time.Minute))
	l, _, err := lg.Begin(ctx, resume.RunMeta{RunID: "r", ThreadID: "t", Owner: "a"}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if err := lg.Append(ctx, l, logtest.Entries(1, 2, true)); err != nil {
		t.Fatal(err)
	}
	if err := lg.Seal(ctx, l); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{prefix(t) + "{r}:meta", prefix(t) + "{r}:log"} {
		if ttl := c.PTTL(ctx, k).Val(); ttl <= 0 || ttl > time.Minute {
			t.Errorf("%s expires in %v", k, ttl)
		}
	}
}

func TestLogMaxEvents(t *testing.T) {
	ctx := context.Background()
	lg, _ := newLog(t, redislog.WithMaxEvents(2))
	l, _, err := lg.Begin(ctx, resume.RunMeta{RunID: "r"}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if err := lg.Append(ctx, l, logtest.Entries(1, 3, false)); !errors.Is(err, resume.ErrLogFull) {
		t.Fatalf("over the limit: %v", err)
	}
	if err := lg.Append(ctx, l, logtest.Entries(1, 2, false)); err != nil {
		t.Fatal(err)
	}
	if err := lg.Append(ctx, l, logtest.Entries(3, 1, true)); err != nil {
		t.Fatalf("the terminal entry of a full run: %v", err)
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
