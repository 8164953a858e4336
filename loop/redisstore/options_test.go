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
		"empty prefix":     redisstore.KeyPrefix(""),
		"brace prefix":     redisstore.KeyPrefix("a{b}:"),
		"negative idle":    redisstore.IdleTTL(-time.Second),
		"sub-ms idle":      redisstore.IdleTTL(time.Microsecond),
		"negative waiting": redisstore.AwaitingTTL(-1),
		"sub-ms waiting":   redisstore.AwaitingTTL(time.Nanosecond),
	} {
		if _, err := redisstore.New(c, opt); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := redisstore.New(nil); err == nil {
		t.Error("nil client accepted")
	}
}
