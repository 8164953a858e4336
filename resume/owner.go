package resume

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// ownerScratch is what an owner grows, kept for the next run's (see
// Handler.scratch).
type ownerScratch struct {
	batch []Entry
	buf   []byte
}

// Sizes of an owner's encoding buffer (see owner.buf).
const (
	encodeBuf    = 16 << 10
	maxEncodeBuf = 256 << 10
)

// encode returns ev's JSON, encoded into the batch's buffer, refusing
// what a client could not read.
func (w *owner[S]) encode(ev agui.Event) ([]byte, error) {
	if w.buf == nil {
		w.buf = make([]byte, 0, encodeBuf)
	}
	mark := len(w.buf)
	b, err := ev.AppendJSON(w.buf)
	if err != nil {
		return nil, err
	}
	if len(b)-mark > agui.MaxEventSize {
		return nil, agui.NewError(agui.CodeSerialization, "the event's JSON is over the event size limit")
	}
	// When the buffer grew, the batch's earlier entries keep the old one,
	// which nothing writes to any more.
	w.buf = b
	return b[mark:len(b):len(b)], nil
}

// terminal reports whether ev ends its run.
func terminal(ev agui.Event) bool {
	t := ev.Type()
	return t == agui.TypeRunFinished || t == agui.TypeRunError
}

// runError is the RUN_ERROR reporting err, with its code (see
// [agui.CodeOf]).
func runError(err error) *agui.RunError {
	return &agui.RunError{Code: string(agui.CodeOf(err)), Message: agui.ErrorText(err)}
}

// mustJSON encodes an event that always encodes.
func mustJSON(ev agui.Event) []byte {
	data, _ := ev.AppendJSON(nil)
	return data
}

// owner is the goroutine of a run this process owns, besides its agent's:
// it drives the run's [core.Consumer] itself, encoding each event as it takes
// it (the log keeps the events as AG-UI 1.1 has them, whatever the
// dialect of the client that started the run: each connection shapes
// them for its own, see follow), numbers what the log accepts and appends it in batches (what
// the agent queued while an append was in flight goes in the next), renews
// the lease, and applies stops, the shutdown deadline and the grace
// period. It seals the log once the terminal entry is stored. One
// hand-off per event: the agent's queue to the owner.
type owner[S any] struct {
	rh    *Handler[S]
	o     *ownedRun
	run   *core.Runner[S]
	runID string
	ctx   context.Context // the run's, for its log lines

	seq   uint64
	batch []Entry
	// buf holds the batch's JSON, one event after the other, and is
	// reused once the batch is appended: the log copies what it keeps.
	buf []byte
	// dropped is set when an event could not be encoded: the run then
	// cannot end in success.
	dropped bool
	broken  bool // the log refused us: nothing more is written
	sealed  bool
}

// own runs the owner of o until its run is over and its agent returned;
// stop ends the run's context and release frees its slot once the agent
// returned.
func (rh *Handler[S]) own(ctx context.Context, o *ownedRun, run *core.Runner[S], runID string, release, stop func()) {
	w := &owner[S]{rh: rh, o: o, run: run, runID: runID, ctx: ctx}
	if sc, _ := rh.scratch.Get().(*ownerScratch); sc != nil {
		w.batch, w.buf = sc.batch, sc.buf
	} else {
		w.batch = make([]Entry, 0, commitBatch)
	}
	defer func() {
		// The batch is empty and the log copied the buffer: the next run
		// reuses both.
		clear(w.batch)
		rh.scratch.Put(&ownerScratch{batch: w.batch[:0], buf: w.buf[:0]})
	}()
	defer func() {
		rh.mu.Lock()
		if rh.runs[runID] == o {
			delete(rh.runs, runID)
		}
		rh.mu.Unlock()
	}()
	defer o.end()
	c, err := run.Start(ctx, w.deliver, core.DeliverKeepsNothing(), core.DeliverLatest())
	if err != nil {
		// Only a run that was started before fails to start; its log
		// still ends with a terminal event.
		stop()
		release()
		w.batch = append(w.batch, Entry{Data: mustJSON(runError(err)), Terminal: true})
		w.flush()
		return
	}
	// RUN_STARTED, delivered by Start, is stored at once: a client may
	// rejoin after it before the agent sends anything.
	w.flush()
	w.drive(c)
	// The agent has returned: its slot is free before the terminal event
	// is stored, so a client that saw it can start the next run.
	c.Close()
	stop()
	release()
	w.flush()
}

// drive takes the run's events until its stream is over, selecting over
// the run's queue, the lease renewal, stops, the shutdown deadline and the
// grace period.
func (w *owner[S]) drive(c *core.Consumer) {
	rh, o := w.rh, w.o
	renew := time.NewTicker(rh.cfg.leaseTTL / 3)
	defer renew.Stop()
	var grace *time.Timer
	defer func() {
		if grace != nil {
			grace.Stop()
		}
	}()
	var (
		graceC <-chan time.Time
		given  bool // the run was cancelled for lack of viewers
		seenAt time.Time
	)
	gateForced, force := o.gateForced, o.force
	for {
		ready := c.Ready()
		if ready == nil {
			return
		}
		select {
		case <-ready:
			c.Take()
			if c.Ready() == nil {
				return // the terminal entry is stored once the agent is joined
			}
			w.flush()
		case <-renew.C:
			if w.broken || w.sealed {
				continue
			}
			st, err := rh.log.Renew(context.Background(), o.lease, rh.cfg.leaseTTL)
			switch {
			case errors.Is(err, ErrFenced) || errors.Is(err, ErrRunNotFound):
				w.fail(err)
				continue
			case err != nil:
				rh.set.Logger.LogAttrs(w.ctx, slog.LevelWarn, "resume: renewing a run's lease failed",
					slog.String("run_id", core.LogID(w.runID)), slog.Any("error", err))
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
			w.endNow()
		case <-force:
			force = nil
			w.endNow()
		case <-o.changed:
		case <-graceC:
			graceC = nil
		}
		if given || w.sealed || rh.cfg.grace < 0 {
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
}

// deliver encodes ev into the batch of entries to append; a full batch is
// appended at once. It keeps nothing of ev (see [core.DeliverKeepsNothing]),
// and never stops the run: a log that refuses it cancels the run itself
// (see fail), and what the run still sends is dropped.
func (w *owner[S]) deliver(ev agui.Event) bool {
	if w.broken || w.sealed {
		return true
	}
	if _, ok := ev.(*agui.RunFinished); ok && w.dropped {
		// An event was lost on the way: the log must not say the run
		// succeeded (as the plain route's writer does).
		ev = &agui.RunError{Message: "an event could not be encoded", Code: string(agui.CodeSerialization)}
	}
	data, err := w.encode(ev)
	if err != nil {
		w.rh.set.Logger.LogAttrs(w.ctx, slog.LevelError, "resume: event not encodable",
			slog.String("run_id", core.LogID(w.runID)), slog.String("event", string(ev.Type())), slog.Any("error", err))
		if !terminal(ev) {
			w.dropped = true
			w.run.Cancel(&agui.Error{Code: agui.CodeSerialization, Message: "an event could not be encoded", Err: err})
			return true
		}
		// Nothing follows a terminal event, so its stand-in is ours.
		data = mustJSON(&agui.RunError{Message: "the run's last event could not be encoded", Code: string(agui.CodeSerialization)})
	}
	w.batch = append(w.batch, Entry{Data: data, Terminal: terminal(ev)})
	if len(w.batch) >= commitBatch {
		w.flush()
	}
	return true
}

// flush numbers the batch and appends it to the log, and seals the log
// once its terminal entry is stored.
func (w *owner[S]) flush() {
	batch := w.batch
	w.batch = batch[:0]
	defer w.reuse()
	if len(batch) == 0 || w.broken || w.sealed {
		clear(batch)
		return
	}
	rh, o := w.rh, w.o
	ctx := context.Background()
	for i := range batch {
		batch[i].Seq = w.seq + uint64(i) + 1
	}
	err := rh.appendRetry(ctx, o.lease, batch)
	if errors.Is(err, ErrLogFull) {
		// The run is over its limits: it is cancelled and only its
		// terminal event is stored from now on.
		o.cancel(&agui.Error{Code: CodeLogFull, Message: "the run's log is full", Err: err})
		last := batch[len(batch)-1]
		if !last.Terminal {
			clear(batch)
			return
		}
		last.Seq = w.seq + 1
		batch = append(batch[:0], last)
		err = rh.appendRetry(ctx, o.lease, batch)
	}
	terminal := batch[len(batch)-1].Terminal
	clear(batch) // the log has the entries: hold none of them
	if err != nil {
		w.fail(err)
		return
	}
	w.seq += uint64(len(batch))
	if terminal {
		w.seal()
	}
}

// reuse empties the encoding buffer once its batch was appended, and
// drops it when a large batch grew it.
func (w *owner[S]) reuse() {
	if cap(w.buf) > maxEncodeBuf {
		w.buf = nil
		return
	}
	w.buf = w.buf[:0]
}

// fail stops writing to a log that refused the run, and cancels the run.
func (w *owner[S]) fail(err error) {
	w.broken = true
	w.o.cancel(&agui.Error{Code: agui.CodeOf(err), Message: "the run log refused the run's events", Err: err})
	w.o.end() // nothing more reaches the log
}

// seal seals the run's log, which holds its terminal entry.
func (w *owner[S]) seal() {
	ctx := context.Background()
	if err := w.rh.sealRetry(ctx, w.o.lease); err != nil {
		w.rh.set.Logger.LogAttrs(ctx, slog.LevelWarn, "resume: sealing a run's log failed",
			slog.String("run_id", core.LogID(w.runID)), slog.Any("error", err))
	}
	w.sealed = true
	w.o.end()
}

// endNow stores the terminal event of a run whose agent ignores its
// cancellation, at the shutdown deadline: its connections end with it,
// and whatever the agent still sends is dropped.
func (w *owner[S]) endNow() {
	w.o.cancel(errClosing)
	if w.sealed || w.broken {
		return
	}
	// What was taken before is stored first, as the run's log is in order.
	w.flush()
	if w.sealed || w.broken {
		return
	}
	w.batch = append(w.batch[:0], Entry{Data: mustJSON(runError(errClosing)), Terminal: true})
	w.flush()
}

// appendRetry appends batch, retrying errors other than the log's
// refusals for up to storeOutage.
func (rh *Handler[S]) appendRetry(ctx context.Context, l Lease, batch []Entry) error {
	deadline := time.Now().Add(storeOutage)
	backoff := 10 * time.Millisecond
	for {
		err := rh.log.Append(ctx, l, batch)
		if err == nil || refusal(err) || time.Now().After(deadline) {
			return err
		}
		rh.set.Logger.LogAttrs(ctx, slog.LevelWarn, "resume: appending to a run's log failed; retrying",
			slog.String("run_id", core.LogID(l.RunID)), slog.Any("error", err))
		t := time.NewTimer(backoff)
		<-t.C
		backoff = min(2*backoff, time.Second)
	}
}

// sealRetry seals l's run, retrying errors other than the log's refusals
// for up to storeOutage: a run left unsealed after a store outage would
// stay its thread's active run, and be taken for lost.
func (rh *Handler[S]) sealRetry(ctx context.Context, l Lease) error {
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

// refusal reports whether err is a Log's answer rather than a failure
// to reach it.
func refusal(err error) bool {
	for _, e := range []error{ErrFenced, ErrSeqConflict, ErrLogFull, ErrRunNotFound} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
