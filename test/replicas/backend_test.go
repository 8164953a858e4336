package replicas_test

import (
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	"github.com/agui-go/agui/internal/pgtest"
	"github.com/agui-go/agui/internal/redistest"
	"github.com/agui-go/agui/loop"
)

// backend is the store the replicas share, as the tests see it: the
// app's flags that point at it, the stored checkpoint of a thread read
// straight from it, and stopping and restarting it.
type backend struct {
	name string
	args []string
	// checkpoint reads thread's checkpoint (its status and lease; its
	// transcript may be left out: on Redis it reads the hash's field "d",
	// the checkpoint without its messages).
	checkpoint    func(t *testing.T, thread string) *loop.Checkpoint
	stop, restart func(t *testing.T)
}

// redisBackend is a redis-server whose append-only file is fsynced on
// every write, so a restart keeps every acknowledged write.
func redisBackend(t *testing.T) backend {
	srv := redistest.Start(t, redistest.AppendOnly())
	c := redis.NewClient(&redis.Options{Addr: srv.Addr()})
	t.Cleanup(func() { _ = c.Close() })
	return backend{
		name: "Redis",
		args: []string{"-redis", srv.URL()},
		checkpoint: func(t *testing.T, thread string) *loop.Checkpoint {
			t.Helper()
			data, err := c.HGet(t.Context(), "agui:gin-app:{"+thread+"}", "d").Bytes()
			if err != nil {
				t.Fatal(err)
			}
			cp, err := loop.UnmarshalCheckpoint(data)
			if err != nil {
				t.Fatal(err)
			}
			return cp
		},
		stop:    func(*testing.T) { srv.Stop() },
		restart: func(*testing.T) { srv.Restart() },
	}
}

// postgresBackend is a postgres of the test's own (internal/pgtest);
// what it committed survives its restart.
func postgresBackend(t *testing.T) backend {
	srv := pgtest.Start(t)
	url, err := srv.CreateDB(t.Context(), "app")
	if err != nil {
		t.Fatal(err)
	}
	pool, err := pgxpool.New(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return backend{
		name: "PostgreSQL",
		args: []string{"-postgres", url},
		checkpoint: func(t *testing.T, thread string) *loop.Checkpoint {
			t.Helper()
			var doc []byte
			if err := pool.QueryRow(t.Context(), "SELECT doc FROM agui_loop_threads WHERE thread_id = $1", thread).Scan(&doc); err != nil {
				t.Fatal(err)
			}
			cp, err := loop.UnmarshalCheckpoint(doc)
			if err != nil {
				t.Fatal(err)
			}
			return cp
		},
		stop: func(*testing.T) { srv.Stop() },
		restart: func(t *testing.T) {
			if err := srv.Restart(t.Context()); err != nil {
				t.Fatal(err)
			}
		},
	}
}

// storedLease reads the status and lease of thread's checkpoint straight
// from the backend.
func storedLease(t *testing.T, be backend, thread string) (loop.Status, time.Time) {
	t.Helper()
	cp := be.checkpoint(t, thread)
	return cp.Status, cp.LeaseUntil
}
