package loop_test

import (
	"context"
	"iter"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/internal/redistest"
	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/loop/redisstore"
)

// Two replicas whose clocks are two hours apart share one store: while
// the replica whose clock is behind holds a thread, the one whose clock
// is ahead cannot take it, since a lease is stamped and read by the
// store's clock (Redis TIME, or the process clock of a MemoryStore),
// never by a replica's.
func TestSkewedReplicasNeverShareAThread(t *testing.T) {
	stores := []struct {
		name string
		open func(t *testing.T) loop.Store
	}{
		{"memory", func(*testing.T) loop.Store { return loop.NewMemoryStore() }},
		{"redis", func(t *testing.T) loop.Store {
			c := redis.NewClient(&redis.Options{Addr: redistest.Start(t).Addr()})
			t.Cleanup(func() { c.Close() })
			s, err := redisstore.New(c)
			if err != nil {
				t.Fatal(err)
			}
			return s
		}},
	}
	for _, st := range stores {
		t.Run(st.name, func(t *testing.T) {
			store := st.open(t)
			entered, release := make(chan struct{}), make(chan struct{})
			held := loop.ProviderFunc(func(ctx context.Context, _ loop.ModelRequest) iter.Seq2[loop.Delta, error] {
				return func(yield func(loop.Delta, error) bool) {
					close(entered)
					select {
					case <-release:
						yield(loop.Delta{Text: "done"}, nil)
					case <-ctx.Done():
						yield(loop.Delta{}, ctx.Err())
					}
				}
			})
			behind := skewed(t, held, store, -time.Hour)
			ahead := skewed(t, loop.Script(loop.Turn{Text: "mine now"}), store, time.Hour)

			done := make(chan error, 1)
			go func() {
				_, err := behind.Execute(t.Context(), loop.Input{ThreadID: "t", Messages: []agui.Message{loop.UserText("hold it")}})
				done <- err
			}()
			<-entered // behind holds the thread and waits on its model
			res, err := ahead.Execute(t.Context(), loop.Input{ThreadID: "t", Messages: []agui.Message{loop.UserText("take it")}})
			close(release)
			if err := <-done; err != nil {
				t.Fatalf("the holder's run: %v", err)
			}
			if agui.CodeOf(err) != loop.CodeBusy {
				t.Fatalf("the other replica ran on a held thread: %s, err %v", res.FinishReason, err)
			}
		})
	}
}

// skewed is an agent on p and store whose process clock is off by skew.
func skewed(t *testing.T, p loop.Provider, store loop.Store, skew time.Duration) *loop.Agent {
	t.Helper()
	a, err := loop.New(p, loop.WithCheckpoints(store), loop.WithClock(func() time.Time { return time.Now().Add(skew) }))
	if err != nil {
		t.Fatal(err)
	}
	return a
}
