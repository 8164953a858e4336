package redislog_test

import (
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/agui-go/agui/resume"
	"github.com/agui-go/agui/resume/logtest"
	"github.com/agui-go/agui/resume/redislog"
)

// TestLogConformance runs the run log conformance kit on a Log on a
// redis-server of its own, each check under a prefix of its own.
func TestLogConformance(t *testing.T) {
	addr := redisAddr(t)
	var n atomic.Int64
	logtest.Run(t, func(t *testing.T) resume.Log {
		c := redis.NewClient(&redis.Options{Addr: addr})
		t.Cleanup(func() { c.Close() })
		lg, err := redislog.New(c, redislog.WithPrefix("conformance:"+strconv.FormatInt(n.Add(1), 10)+":"))
		if err != nil {
			t.Fatal(err)
		}
		return lg
	})
}
