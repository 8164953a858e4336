package redisstore_test

import (
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/agui-go/agui/loop/redisstore"
)

func TestOptions(t *testing.T) {
	c := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1"})
	t.Cleanup(func() { _ = c.Close() })
	for name, opt := range map[string]redisstore.Option{
		"empty prefix":     redisstore.WithKeyPrefix(""),
		"brace prefix":     redisstore.WithKeyPrefix("a{b}:"),
		"negative idle":    redisstore.WithIdleTTL(-time.Second),
		"sub-ms idle":      redisstore.WithIdleTTL(time.Microsecond),
		"negative waiting": redisstore.WithAwaitingTTL(-1),
		"sub-ms waiting":   redisstore.WithAwaitingTTL(time.Nanosecond),
	} {
		if _, err := redisstore.New(c, opt); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := redisstore.New(nil); err == nil {
		t.Error("nil client accepted")
	}
}
