package resume_test

import (
	"context"
	"errors"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"
	"weak"

	"github.com/agui-go/agui/resume"
	"github.com/agui-go/agui/resume/logtest"
)

func mustMemoryLog(t *testing.T, opts ...resume.MemoryLogOption) *resume.MemoryLog {
	t.Helper()
	m, err := resume.NewMemoryLog(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func begin(t *testing.T, lg resume.Log, run string) resume.Lease {
	t.Helper()
	l, _, err := lg.Begin(context.Background(), resume.RunMeta{RunID: run, ThreadID: "t-" + run, Owner: "a"}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestMemoryLogReadWaitsForAppend(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		m := mustMemoryLog(t)
		l := begin(t, m, "r")
		got := make(chan []resume.Entry)
		go func() {
			es, st, err := m.Read(ctx, "r", 0, 10, time.Hour)
			if err != nil || st.SinceRead != 0 {
				t.Errorf("Read: %v, SinceRead %v while reading", err, st.SinceRead)
			}
			got <- es
		}()
		synctest.Wait()
		if st, _ := m.Status(ctx, "r"); st.SinceRead != 0 {
			t.Errorf("a waiting reader is not counted: %v", st.SinceRead)
		}
		if err := m.Append(ctx, l, logtest.Entries(1, 2, false)); err != nil {
			t.Fatal(err)
		}
		if es := <-got; len(es) != 2 {
			t.Fatalf("woken with %d entries", len(es))
		}
		// Nothing comes: the wait ends empty at its timeout.
		start := time.Now()
		es, _, err := m.Read(ctx, "r", 2, 10, time.Second)
		if err != nil || len(es) != 0 || time.Since(start) != time.Second {
			t.Fatalf("timed-out Read: %v %v after %v", es, err, time.Since(start))
		}
	})
}

// TestMemoryLogLeaseExpiresAtItsTTL: a lease is held until its ttl has
// passed on the log's clock, and taken over from then on (resume/logtest
// checks fencing with a lease of 0).
func TestMemoryLogLeaseExpiresAtItsTTL(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		m := mustMemoryLog(t)
		if _, _, err := m.Begin(ctx, resume.RunMeta{RunID: "r", Owner: "a"}, time.Second); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second - time.Nanosecond)
		if _, _, err := m.Takeover(ctx, "r", "b", time.Second); !errors.Is(err, resume.ErrLeaseHeld) {
			t.Fatalf("takeover before the ttl: %v, want ErrLeaseHeld", err)
		}
		time.Sleep(time.Nanosecond)
		if st, _ := m.Status(ctx, "r"); !st.LeaseExpired {
			t.Fatal("lease not expired after its ttl")
		}
		if l, st, err := m.Takeover(ctx, "r", "b", time.Second); err != nil || l.Gen != 2 || st.Owner != "b" {
			t.Fatalf("takeover after the ttl: %+v %+v %v", l, st, err)
		}
	})
}

func TestMemoryLogRetention(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		m := mustMemoryLog(t, resume.WithMemoryRetention(time.Minute))
		l := begin(t, m, "r")
		if err := m.Append(ctx, l, logtest.Entries(1, 3, true)); err != nil {
			t.Fatal(err)
		}
		if err := m.Seal(ctx, l); err != nil {
			t.Fatal(err)
		}
		time.Sleep(59 * time.Second)
		if es, _, err := m.Read(ctx, "r", 0, 10, 0); err != nil || len(es) != 3 {
			t.Fatalf("sealed run not readable within retention: %v", err)
		}
		time.Sleep(time.Second)
		if _, _, err := m.Read(ctx, "r", 0, 10, 0); !errors.Is(err, resume.ErrRunNotFound) {
			t.Fatalf("expired run: %v", err)
		}
		if s := m.Stats(); s != (resume.MemoryStats{}) {
			t.Fatalf("memory left after retention: %+v", s)
		}
	})
}

func TestMemoryLogLimits(t *testing.T) {
	ctx := context.Background()
	m := mustMemoryLog(t, resume.WithMemoryRunEvents(3))
	l := begin(t, m, "r")
	if err := m.Append(ctx, l, logtest.Entries(1, 3, false)); err != nil {
		t.Fatal(err)
	}
	if err := m.Append(ctx, l, logtest.Entries(4, 1, false)); !errors.Is(err, resume.ErrLogFull) {
		t.Fatalf("over the event limit: %v", err)
	}
	// The terminal entry is always taken, so a full run can still end.
	if err := m.Append(ctx, l, logtest.Entries(4, 1, true)); err != nil {
		t.Fatalf("terminal entry of a full run: %v", err)
	}

	// The byte budget evicts sealed runs, oldest first, and never a live
	// one: a new run is refused instead. A run's ids count (a run's
	// overhead is 256 bytes).
	size := int64(3*(len(`{"n":1}`)+48) + len("a"+"t-a"+"a") + 256)
	m = mustMemoryLog(t, resume.WithMemoryBytes(2*size), resume.WithMemoryRunShare(1))
	for _, id := range []string{"a", "b"} {
		l := begin(t, m, id)
		if err := m.Append(ctx, l, logtest.Entries(1, 3, true)); err != nil {
			t.Fatal(err)
		}
		if id == "a" {
			if err := m.Seal(ctx, l); err != nil {
				t.Fatal(err)
			}
		}
	}
	l = begin(t, m, "c") // evicts a
	if _, err := m.Status(ctx, "a"); !errors.Is(err, resume.ErrRunNotFound) {
		t.Fatalf("the sealed run was not evicted: %v", err)
	}
	if err := m.Append(ctx, l, logtest.Entries(1, 3, false)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := m.Begin(ctx, resume.RunMeta{RunID: "d"}, time.Minute); !errors.Is(err, resume.ErrLogFull) {
		t.Fatalf("Begin with only live runs over budget: %v", err)
	}
	if s := m.Stats(); s.Live != 2 || s.Bytes != 2*size {
		t.Fatalf("stats %+v", s)
	}
}

func TestNewMemoryLogRejectsBadLimits(t *testing.T) {
	for _, o := range []resume.MemoryLogOption{
		resume.WithMemoryRunEvents(0), resume.WithMemoryRunBytes(-1),
		resume.WithMemoryBytes(0), resume.WithMemoryRetention(0),
	} {
		if _, err := resume.NewMemoryLog(o); err == nil {
			t.Error("a non-positive limit was accepted")
		}
	}
}

// TestMemoryLogCountsIdsAndSweepsOnTime: a run's ids count against the
// budget like its events, and a run that expired is deleted at its expiry
// by the log's own timer, with no further call to the log; Close stops
// the timer.
func TestMemoryLogCountsIdsAndSweepsOnTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		const budget = 64 << 20
		m := mustMemoryLog(t, resume.WithMemoryRetention(time.Minute), resume.WithMemoryBytes(budget))
		big := strings.Repeat("x", 4<<20)
		if _, _, err := m.Begin(ctx, resume.RunMeta{RunID: "huge", ThreadID: big + big + big + big + big}, time.Minute); !errors.Is(err, resume.ErrLogFull) {
			t.Fatalf("a run whose ids are over the run's limit: %v, want ErrLogFull", err)
		}
		var refused int
		var data weak.Pointer[byte]
		for i := range 30 {
			id := strconv.Itoa(i) + big
			l, _, err := m.Begin(ctx, resume.RunMeta{RunID: id, ThreadID: id, Owner: "a"}, time.Minute)
			if errors.Is(err, resume.ErrLogFull) {
				refused++
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			e := []resume.Entry{{Seq: 1, Data: []byte(`{"type":"RUN_FINISHED"}`), Terminal: true}}
			if i == 0 {
				data = weak.Make(&e[0].Data[0])
			}
			if err := m.Append(ctx, l, e); err != nil {
				t.Fatal(err)
			}
			if i%2 == 0 {
				if err := m.Seal(ctx, l); err != nil {
					t.Fatal(err)
				}
			}
			if s := m.Stats(); s.Bytes+s.Reserved > budget || s.Bytes < int64(len(id))*int64(s.Runs) {
				t.Fatalf("after %d runs the log counts %+v for %d bytes of ids each, budget %d", i+1, s, 2*len(id), budget)
			}
		}
		if refused == 0 {
			t.Fatal("30 runs with 8 MiB of ids each fit in a 64 MiB budget")
		}
		// The runs left unsealed are never renewed: their owner is gone.
		// Nothing calls the log any more.
		time.Sleep(time.Minute + time.Minute)
		synctest.Wait()
		if s := m.Stats(); s != (resume.MemoryStats{}) {
			t.Fatalf("held after the retention time, with no further call: %+v", s)
		}
		runtime.GC()
		if data.Value() != nil {
			t.Fatal("an expired run's event is still reachable")
		}
		if err := m.Close(); err != nil {
			t.Fatal(err)
		}
		// Closed, the log still answers, and sweeps on its calls.
		l := begin(t, m, "after")
		if err := m.Append(ctx, l, logtest.Entries(1, 1, true)); err != nil {
			t.Fatal(err)
		}
		if err := m.Seal(ctx, l); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Minute)
		if _, err := m.Status(ctx, "after"); !errors.Is(err, resume.ErrRunNotFound) {
			t.Fatalf("expired run after Close: %v", err)
		}
	})
}

// TestMemoryLogRunShareSurvivesAFlood: 2,000 abandoned runs cannot make a
// run that was admitted fail: each run holds its share from Begin on, and
// the runs past what the budget can share are refused at Begin, before
// any stream. Once the abandoned runs' owners are gone, a new run evicts
// them and completes.
func TestMemoryLogRunShareSurvivesAFlood(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		const share = 64 << 10
		m := mustMemoryLog(t, resume.WithMemoryBytes(1<<20), resume.WithMemoryRunShare(share), resume.WithMemoryRunBytes(1<<20))
		defer m.Close()
		victim := begin(t, m, "victim")
		chunk := make([]resume.Entry, 1)
		var admitted, refused int
		for i := range 2000 {
			l, _, err := m.Begin(ctx, resume.RunMeta{RunID: "flood" + strconv.Itoa(i), Owner: "a"}, time.Second)
			if errors.Is(err, resume.ErrLogFull) {
				refused++
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			admitted++
			for seq := uint64(1); ; seq++ {
				chunk[0] = resume.Entry{Seq: seq, Data: make([]byte, 16<<10)}
				if err := m.Append(ctx, l, chunk); errors.Is(err, resume.ErrLogFull) {
					break
				} else if err != nil {
					t.Fatal(err)
				}
			}
		}
		if refused == 0 || admitted == 0 {
			t.Fatalf("%d flood runs admitted, %d refused", admitted, refused)
		}
		// The victim's run, within its share, goes on and ends.
		for seq := uint64(1); seq <= 60; seq++ {
			chunk[0] = resume.Entry{Seq: seq, Data: make([]byte, 1<<10), Terminal: seq == 60}
			if err := m.Append(ctx, victim, chunk); err != nil {
				t.Fatalf("the victim's event %d after the flood: %v", seq, err)
			}
		}
		if err := m.Seal(ctx, victim); err != nil {
			t.Fatal(err)
		}
		// The flood's owners never renew: once their leases end, their
		// runs are evicted before a new run is refused.
		time.Sleep(time.Second)
		l := begin(t, m, "next")
		for seq := uint64(1); seq <= 60; seq++ {
			chunk[0] = resume.Entry{Seq: seq, Data: make([]byte, 1<<10), Terminal: seq == 60}
			if err := m.Append(ctx, l, chunk); err != nil {
				t.Fatalf("a new run's event %d after the flood: %v", seq, err)
			}
		}
	})
}
