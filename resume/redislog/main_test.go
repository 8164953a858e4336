package redislog_test

import (
	"sync"
	"testing"

	"go.uber.org/goleak"

	"github.com/agui-go/agui/internal/redistest"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// servers are the redis-servers of the running tests and benchmarks (see
// redisAddr), by their testing.TB.
var servers sync.Map

// redisAddr returns the address of t's redis-server, started by the
// test's first call (internal/redistest's, on a free loopback port, with
// no persistence) and stopped when the test ends: the replicas and logs
// of one test share it.
func redisAddr(t testing.TB) string {
	t.Helper()
	if s, ok := servers.Load(t); ok {
		return s.(*redistest.Server).Addr()
	}
	s := redistest.Start(t)
	servers.Store(t, s)
	t.Cleanup(func() { servers.Delete(t) })
	return s.Addr()
}
