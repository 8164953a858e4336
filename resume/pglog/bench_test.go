package pglog_test

import (
	"testing"
	"time"

	"github.com/agui-go/agui/resume"
	"github.com/agui-go/agui/resume/logtest"
	"github.com/agui-go/agui/resume/pglog"
)

// BenchmarkFollowWake is what a follower waits, per event, from the start
// of an append to the return of its Read: the append's transaction, its
// NOTIFY, the listener's wake-up and the follower's read of the entry.
func BenchmarkFollowWake(b *testing.B) {
	lg := newLog(b, newPool(b), pglog.WithFollowWait(time.Minute))
	ctx := b.Context()
	l, _, err := lg.Begin(ctx, resume.RunMeta{RunID: "r", ThreadID: "t", Owner: "a"}, time.Hour)
	if err != nil {
		b.Fatal(err)
	}
	seq := 0
	for b.Loop() {
		got := make(chan time.Time, 1)
		ready := make(chan struct{})
		after := uint64(seq)
		go func() {
			close(ready)
			es, _, err := lg.Read(ctx, "r", after, 10, time.Minute)
			if err != nil || len(es) != 1 {
				b.Errorf("read %v %v", es, err)
			}
			got <- time.Now()
		}()
		<-ready
		seq++
		if err := lg.Append(ctx, l, logtest.Entries(seq, 1, false)); err != nil {
			b.Fatal(err)
		}
		<-got
	}
}

// BenchmarkAppend is one event's append: the transaction that checks the
// lease, inserts the entry and notifies.
func BenchmarkAppend(b *testing.B) {
	lg := newLog(b, newPool(b))
	ctx := b.Context()
	l, _, err := lg.Begin(ctx, resume.RunMeta{RunID: "r", ThreadID: "t", Owner: "a"}, time.Hour)
	if err != nil {
		b.Fatal(err)
	}
	seq := 0
	for b.Loop() {
		seq++
		if err := lg.Append(ctx, l, logtest.Entries(seq, 1, false)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPoll is one look for new events with nothing new (a Read
// without a wait): what each follower of a polling design would pay at
// every interval.
func BenchmarkPoll(b *testing.B) {
	lg := newLog(b, newPool(b))
	ctx := b.Context()
	l, _, err := lg.Begin(ctx, resume.RunMeta{RunID: "r", ThreadID: "t", Owner: "a"}, time.Hour)
	if err != nil {
		b.Fatal(err)
	}
	if err := lg.Append(ctx, l, logtest.Entries(1, 1, false)); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if es, _, err := lg.Read(ctx, "r", 1, 10, 0); err != nil || len(es) != 0 {
			b.Fatal(es, err)
		}
	}
}
