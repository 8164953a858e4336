package core

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/agui-go/agui"
)

// produce ranges over the run's events and hands each, encoded, to the
// committer; it closes entries when the run has ended. The entries carry
// no Seq: the committer numbers what the log accepts.
func (rh *ResumableHandler[S]) produce(ctx context.Context, run *Runner[S], in *agui.RunAgentInput, entries chan<- LogEntry) {
	defer close(entries)
	// The log keeps the 1.0 events whatever the dialect of the client that
	// started the run: each connection downgrades for its own (follow).
	for ev, err := range run.Events(ctx) {
		if err != nil {
			// Only a run that refused to start yields an error; its log
			// still ends with a terminal event.
			entries <- LogEntry{Data: mustJSON(runError(err)), Terminal: true}
			return
		}
		data, err := encodeEvent(ev)
		if err != nil {
			rh.logger().LogAttrs(ctx, slog.LevelError, "core: event not encodable",
				slog.String("run_id", LogID(in.RunID)), slog.String("event", string(ev.Type())), slog.Any("error", err))
			if !isTerminal(ev) {
				run.Cancel(&agui.Error{Code: agui.CodeSerialization, Message: "an event could not be encoded", Err: err})
				continue
			}
			// Nothing follows a terminal event, so its stand-in is ours.
			data = mustJSON(&agui.RunError{Message: "the run's last event could not be encoded", Code: string(agui.CodeSerialization)})
		}
		entries <- LogEntry{Data: data, Terminal: isTerminal(ev)}
	}
}

// encodeEvent returns ev's JSON, refusing what a client could not read.
func encodeEvent(ev agui.Event) ([]byte, error) {
	data, err := ev.AppendJSON(nil)
	if err != nil {
		return nil, err
	}
	if len(data) > agui.MaxEventSize {
		return nil, agui.NewError(agui.CodeSerialization, "the event's JSON is over the event size limit")
	}
	return data, nil
}

// mustJSON encodes an event that always encodes.
func mustJSON(ev agui.Event) []byte {
	data, _ := ev.AppendJSON(nil)
	return data
}

// commit is the run's owner: it numbers the produced entries and appends
// them to the log in batches (what is queued while an append is in flight
// goes in the next one), renews the lease, and applies stops and the
// grace period. It seals the log once the terminal entry is stored.
func (rh *ResumableHandler[S]) commit(o *ownedRun, runID string, entries <-chan LogEntry) {
	ctx := context.Background()
	renew := time.NewTicker(rh.cfg.leaseTTL / 3)
	defer renew.Stop()
	var grace *time.Timer
	defer func() {
		if grace != nil {
			grace.Stop()
		}
	}()
	var (
		graceC   <-chan time.Time
		seq      uint64
		broken   bool // the log refused us: nothing more is written
		sealed   bool
		given    bool // the run was cancelled for lack of viewers
		seenAt   time.Time
		batch    = make([]LogEntry, 0, commitBatch)
		finished bool
	)
	fail := func(err error) {
		broken = true
		o.cancel(&agui.Error{Code: agui.CodeOf(err), Message: "the run log refused the run's events", Err: err})
		o.end() // nothing more reaches the log
	}
	seal := func() {
		if err := rh.sealRetry(ctx, o.lease); err != nil {
			rh.logger().LogAttrs(ctx, slog.LevelWarn, "core: sealing a run's log failed",
				slog.String("run_id", LogID(runID)), slog.Any("error", err))
		}
		sealed = true
		o.end()
	}
	gateForced, force := o.gateForced, o.force
	// endNow stores the terminal event of a run whose agent ignores its
	// cancellation, at the shutdown deadline: its connections end with
	// it, and whatever the agent still sends is dropped.
	endNow := func() {
		o.cancel(errClosing)
		if sealed || broken {
			return
		}
		term := []LogEntry{{Seq: seq + 1, Data: mustJSON(runError(errClosing)), Terminal: true}}
		if err := rh.appendRetry(ctx, o.lease, term); err != nil {
			fail(err)
			return
		}
		seq++
		seal()
	}
	for !finished {
		select {
		case e, ok := <-entries:
			if !ok {
				finished = true
				break
			}
			batch = append(batch[:0], e)
		more:
			for len(batch) < commitBatch && !batch[len(batch)-1].Terminal {
				select {
				case e, ok := <-entries:
					if !ok {
						finished = true
						break more
					}
					batch = append(batch, e)
				default:
					break more
				}
			}
			if broken || sealed {
				continue
			}
			for i := range batch {
				batch[i].Seq = seq + uint64(i) + 1
			}
			err := rh.appendRetry(ctx, o.lease, batch)
			if errors.Is(err, ErrLogFull) {
				// The run is over its limits: it is cancelled and only its
				// terminal event is stored from now on.
				o.cancel(&agui.Error{Code: CodeLogFull, Message: "the run's log is full", Err: err})
				last := batch[len(batch)-1]
				if !last.Terminal {
					continue
				}
				last.Seq = seq + 1
				batch = append(batch[:0], last)
				err = rh.appendRetry(ctx, o.lease, batch)
			}
			if err != nil {
				fail(err)
				continue
			}
			seq += uint64(len(batch))
			if batch[len(batch)-1].Terminal {
				seal()
			}
		case <-renew.C:
			if broken || sealed {
				continue
			}
			st, err := rh.log.Renew(ctx, o.lease, rh.cfg.leaseTTL)
			switch {
			case errors.Is(err, ErrFenced) || errors.Is(err, ErrRunNotFound):
				fail(err)
				continue
			case err != nil:
				rh.logger().LogAttrs(ctx, slog.LevelWarn, "core: renewing a run's lease failed",
					slog.String("run_id", LogID(runID)), slog.Any("error", err))
				continue
			}
			if st.Stopped {
				o.cancel(errStopped)
			}
			if st.SinceRead >= 0 && st.SinceRead < rh.cfg.presence {
				// A reader elsewhere follows the run.
				if at := time.Now().Add(-st.SinceRead); at.After(seenAt) {
					seenAt = at
				}
			}
		case <-gateForced:
			gateForced = nil
			endNow()
		case <-force:
			force = nil
			endNow()
		case <-o.changed:
		case <-graceC:
			graceC = nil
		}
		if given || finished || sealed || rh.cfg.grace < 0 {
			continue
		}
		// The grace period: it runs from the last sign of a viewer.
		viewers, leftAt := o.presence()
		if viewers > 0 {
			continue
		}
		if leftAt.After(seenAt) {
			seenAt = leftAt
		}
		left := rh.cfg.grace - time.Since(seenAt)
		if left <= 0 {
			given = true
			o.cancel(errAbandoned)
			continue
		}
		if grace == nil {
			grace = time.NewTimer(left)
		} else {
			grace.Reset(left)
		}
		graceC = grace.C
	}
	rh.mu.Lock()
	if rh.runs[runID] == o {
		delete(rh.runs, runID)
	}
	rh.mu.Unlock()
}

// appendRetry appends batch, retrying errors other than the log's
// refusals for up to storeOutage.
func (rh *ResumableHandler[S]) appendRetry(ctx context.Context, l Lease, batch []LogEntry) error {
	deadline := time.Now().Add(storeOutage)
	backoff := 10 * time.Millisecond
	for {
		err := rh.log.Append(ctx, l, batch)
		if err == nil || refusal(err) || time.Now().After(deadline) {
			return err
		}
		rh.logger().LogAttrs(ctx, slog.LevelWarn, "core: appending to a run's log failed; retrying",
			slog.String("run_id", LogID(l.RunID)), slog.Any("error", err))
		t := time.NewTimer(backoff)
		<-t.C
		backoff = min(2*backoff, time.Second)
	}
}

// sealRetry seals l's run, retrying errors other than the log's refusals
// for up to storeOutage: a run left unsealed after a store outage would
// stay its thread's active run, and be taken for lost.
func (rh *ResumableHandler[S]) sealRetry(ctx context.Context, l Lease) error {
	deadline := time.Now().Add(storeOutage)
	backoff := 10 * time.Millisecond
	for {
		err := rh.log.Seal(ctx, l)
		if err == nil || refusal(err) || time.Now().After(deadline) {
			return err
		}
		t := time.NewTimer(backoff)
		<-t.C
		backoff = min(2*backoff, time.Second)
	}
}

// refusal reports whether err is a RunLog's answer rather than a failure
// to reach it.
func refusal(err error) bool {
	for _, e := range []error{ErrFenced, ErrSeqConflict, ErrLogFull, ErrRunNotFound} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
