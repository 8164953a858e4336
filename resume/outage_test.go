package resume_test

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/resume"
)

// downLog is a RunLog whose store can be made unreachable; its Read, like
// redislog's, answers the run's status from before its wait.
type downLog struct {
	resume.Log
	down atomic.Bool
	// ownerDown keeps the owner's writes failing after the store is
	// back: its connections to the store recover later than a reader's.
	ownerDown atomic.Bool
}

var errDown = &agui.Error{Code: "STORE_UNAVAILABLE", Message: "the store is down"}

func (d *downLog) Begin(ctx context.Context, m resume.RunMeta, ttl time.Duration) (resume.Lease, resume.RunStatus, error) {
	if d.down.Load() {
		return resume.Lease{}, resume.RunStatus{}, errDown
	}
	return d.Log.Begin(ctx, m, ttl)
}
func (d *downLog) Append(ctx context.Context, l resume.Lease, es []resume.Entry) error {
	if d.down.Load() || d.ownerDown.Load() {
		return errDown
	}
	return d.Log.Append(ctx, l, es)
}
func (d *downLog) Renew(ctx context.Context, l resume.Lease, ttl time.Duration) (resume.RunStatus, error) {
	if d.down.Load() || d.ownerDown.Load() {
		return resume.RunStatus{}, errDown
	}
	return d.Log.Renew(ctx, l, ttl)
}
func (d *downLog) Read(ctx context.Context, run string, after uint64, max int, wait time.Duration) ([]resume.Entry, resume.RunStatus, error) {
	if d.down.Load() {
		return nil, resume.RunStatus{}, errDown
	}
	// As redislog does, the status is read before the wait.
	before, err := d.Log.Status(ctx, run)
	if err != nil {
		return nil, before, err
	}
	es, st, err := d.Log.Read(ctx, run, after, max, wait)
	if err == nil {
		before.Last, before.Sealed = st.Last, st.Sealed
	}
	return es, before, err
}
func (d *downLog) Status(ctx context.Context, run string) (resume.RunStatus, error) {
	if d.down.Load() {
		return resume.RunStatus{}, errDown
	}
	return d.Log.Status(ctx, run)
}
func (d *downLog) Takeover(ctx context.Context, run, owner string, ttl time.Duration) (resume.Lease, resume.RunStatus, error) {
	if d.down.Load() {
		return resume.Lease{}, resume.RunStatus{}, errDown
	}
	return d.Log.Takeover(ctx, run, owner, ttl)
}

// TestResumableStoreOutage: an outage of the log's store ends the owner's
// and a follower's stream with a RUN_ERROR of the store's code, and once
// the store is back, a reader on another replica does not end the run,
// whose owner is alive, as RUN_LOST although its lease ran out during the
// outage: a reader waits a lease TTL past the first sight of an ended
// lease, and the owner renews it first.
func TestResumableStoreOutage(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		mem := mustMemoryLog(t)
		defer mem.Close()
		lg := &downLog{Log: mem}
		started := make(chan string, 1)
		opts := []any{resume.WithDetach(time.Minute), resume.WithLeaseTTL(3 * time.Second)}
		a := newResumable(t, blockAgent(started), lg, append(opts, resume.WithReplicaID("a"))...)
		// The follower polls every second (its heartbeat), so it looks at
		// the lease three times within a TTL of the store's return.
		b := newResumable(t, blockAgent(nil), lg, append(opts, resume.WithReplicaID("b"), core.WithHeartbeat(time.Second))...)
		owner, cancelOwner, ownerDone := serveIn(http.MethodPost, "/chat", runRequest("t", "r"), a.ServeHTTP)
		defer cancelOwner()
		<-started
		// The follower's cursor is one the owner's client has seen: wait
		// for the owner to store its first events before rejoining.
		synctest.Wait()
		follower, cancelFollower, followerDone := serveIn(http.MethodGet, "/chat/runs/r?after=1", "", func(w http.ResponseWriter, r *http.Request) {
			b.Rejoin(w, r, "r")
		})
		defer cancelFollower()
		synctest.Wait()

		lg.down.Store(true)
		time.Sleep(10 * time.Second) // the outage outlasts the lease
		synctest.Wait()
		for name, s := range map[string]*memWriter{"owner": owner, "follower": follower} {
			out := s.String()
			i := strings.LastIndex(out, "data: ")
			if i < 0 || !strings.Contains(out[i:], `"type":"RUN_ERROR"`) || !strings.Contains(out[i:], `"code":"STORE_UNAVAILABLE"`) {
				t.Fatalf("the %s's stream after the outage began: %q", name, out)
			}
		}
		<-ownerDone
		<-followerDone

		// The store is back; the owner's renewals get through 2.5 s later
		// (its renewal at 3 s), within a lease TTL as the README promises,
		// and after the follower has seen the ended lease twice. The times
		// are off the whole seconds on which the follower reads and the
		// owner renews, so no two events are simultaneous (before, a
		// renewal at 5 s and a takeover at 6 s met the follower's reads
		// and the owner's ticks on the same instants, and the order
		// synctest picked decided the run's fate).
		lg.ownerDown.Store(true)
		lg.down.Store(false)
		time.AfterFunc(2500*time.Millisecond, func() { lg.ownerDown.Store(false) })
		_, cancelRejoin, rejoinDone := serveIn(http.MethodGet, "/chat/runs/r?after=2", "", func(w http.ResponseWriter, r *http.Request) {
			b.Rejoin(w, r, "r")
		})
		time.Sleep(10 * time.Second)
		synctest.Wait()
		st, err := mem.Status(context.Background(), "r")
		if err != nil || st.Sealed || st.Owner != "a" {
			t.Fatalf("after the outage the live run is %+v (%v), last event %#v", st, err, lastEvent(t, mem, "r"))
		}
		cancelRejoin()
		<-rejoinDone
		if err := a.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
		if err := b.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
	})
}

// sealOnceDown fails the first Seal as a store outage would.
type sealOnceDown struct {
	resume.Log
	failed atomic.Bool
}

func (d *sealOnceDown) Seal(ctx context.Context, l resume.Lease) error {
	if d.failed.CompareAndSwap(false, true) {
		return errDown
	}
	return d.Log.Seal(ctx, l)
}

// TestResumableSealRetriesAnOutage: a seal that meets a store outage is
// retried, so the finished run does not stay its thread's active run.
func TestResumableSealRetriesAnOutage(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		mem := mustMemoryLog(t)
		defer mem.Close()
		var runs atomic.Int32
		rh := newResumable(t, countAgent(3, &runs), &sealOnceDown{Log: mem})
		_, cancel, done := serveIn(http.MethodPost, "/chat", runRequest("t", "r"), rh.ServeHTTP)
		defer cancel()
		<-done
		time.Sleep(time.Second)
		synctest.Wait()
		if st, err := mem.Status(context.Background(), "r"); err != nil || !st.Sealed {
			t.Fatalf("the finished run: %+v %v, want sealed", st, err)
		}
		if id, _ := mem.ActiveRun(context.Background(), "t", ""); id != "" {
			t.Fatalf("the thread's active run is still %q", id)
		}
		if err := rh.Close(context.Background()); err != nil {
			t.Fatal(err)
		}
	})
}
