package resume

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// follow writes the run's log after the cursor to w and follows it to
// its terminal event, until the client goes away. The log holds the
// events as AG-UI 1.1 has them: the connection shapes them for its own
// client, which declared version ("" before 1.0), as a plain route would
// serve that client ([core.Conn.DowngradeJSON]), so clients of every
// dialect may follow one run.
// leave, when not nil, is called when it returns: the caller launched the
// run and is counted as its viewer already. Otherwise the connection is
// counted as a viewer (of a run this process runs, or by its reads of the
// log) only once the principal is checked, so a refused caller never moves
// the run's grace period.
func (rh *Handler[S]) follow(w http.ResponseWriter, r *http.Request, runID string, after uint64, version, principal, base string, leave func()) {
	if leave != nil {
		defer leave()
	}
	ctx := r.Context()
	if leave == nil {
		// The principal is checked on the run's status, not on a read: a
		// read counts as a viewer's presence to an owner elsewhere.
		st, err := rh.log.Status(ctx, runID)
		if err != nil {
			rh.refuse(w, r, err, after)
			return
		}
		if st.Principal != principal {
			rh.ir.Refuse(w, r, forbidden())
			return
		}
		if local := rh.watch(runID); local != nil {
			defer local()
		} else if g := rh.set.Gate; g != nil && !st.Sealed {
			// Another process runs this run, so nothing here ends its log at
			// shutdown: the gate ends this connection instead (see closing).
			fctx, stop := context.WithCancelCause(ctx)
			defer stop(nil)
			release, _, ok := g.Admit(stop)
			if !ok {
				w.Header().Set("Retry-After", "1")
				rh.ir.Refuse(w, r, &core.RequestError{Status: http.StatusServiceUnavailable, Code: core.CodeUnavailable,
					Message: "the server is shutting down"})
				return
			}
			defer release()
			ctx = fctx
		}
	}
	entries, st, err := rh.log.Read(ctx, runID, after, readBatch, 0)
	if err != nil {
		rh.refuse(w, r, err, after)
		return
	}
	f := &follower{c: rh.h.Conn(ctx, w, runID, version), bufs: &rh.bufs}
	defer f.release()
	if loc := location(base, runID, version); loc != "" {
		w.Header().Set("Content-Location", loc)
	}
	f.grab()
	f.buf, _ = agui.AppendSSEFrame(f.buf, agui.SSEFrame{Retry: rh.cfg.retry}) // none when 0
	hb := rh.set.Heartbeat
	wait := rh.cfg.leaseTTL
	if hb > 0 {
		wait = min(wait, hb)
	}
	cursor := after
	var expiredAt time.Time // when this reader first saw the lease ended
	for {
		for _, e := range entries {
			f.frame(e)
			if len(f.buf) >= writeChunk && !f.write() {
				return
			}
			cursor = e.Seq
			if e.Terminal {
				f.send()
				return
			}
		}
		if !f.send() {
			return
		}
		entries, st, err = rh.log.Read(ctx, runID, cursor, readBatch, wait)
		if err != nil {
			if r.Context().Err() == nil && errors.Is(context.Cause(ctx), core.ErrShuttingDown) {
				f.closing()
				return
			}
			if ctx.Err() == nil {
				// The connection ends with a coded RUN_ERROR (without an
				// id, so the client rejoins from its cursor once the log
				// is back), never silently.
				rh.set.Logger.LogAttrs(ctx, slog.LevelWarn, "resume: reading a run's log failed",
					slog.String("run_id", core.LogID(runID)), slog.Any("error", err))
				f.end(logUnavailable(err))
			}
			return
		}
		if len(entries) > 0 {
			continue
		}
		switch {
		case st.Sealed:
			return // sealed without a terminal event: nothing more comes
		case !st.LeaseExpired:
			expiredAt = time.Time{}
		case rh.presumedDead(runID, &expiredAt):
			rh.rescue(ctx, runID)
		}
		if f.c.HeartbeatDue() {
			f.grab()
			f.buf = append(f.buf, agui.SSEHeartbeat...)
		}
	}
}

// rescue ends a run whose owner died: it takes the run over and stores a
// RUN_ERROR with code RUN_LOST as its last event. Exactly one process
// wins the takeover; the others keep following.
func (rh *Handler[S]) rescue(ctx context.Context, runID string) {
	prev, err := rh.log.Status(ctx, runID)
	if err != nil {
		return
	}
	l, st, err := rh.log.Takeover(ctx, runID, rh.cfg.replica, rh.cfg.leaseTTL)
	if err != nil {
		if !errors.Is(err, ErrLeaseHeld) && !errors.Is(err, ErrFenced) {
			rh.set.Logger.LogAttrs(ctx, slog.LevelWarn, "resume: taking over a run failed",
				slog.String("run_id", core.LogID(runID)), slog.Any("error", err))
		}
		return
	}
	lost := &agui.RunError{Code: string(CodeRunLost), Message: "the process running this run stopped"}
	if err := rh.log.Append(ctx, l, []Entry{{Seq: st.Last + 1, Data: mustJSON(lost), Terminal: true}}); err != nil {
		rh.set.Logger.LogAttrs(ctx, slog.LevelWarn, "resume: ending a lost run failed",
			slog.String("run_id", core.LogID(runID)), slog.Any("error", err))
		return
	}
	_ = rh.log.Seal(ctx, l)
	rh.set.Logger.LogAttrs(ctx, slog.LevelWarn, "resume: a run's owner stopped; the run was ended",
		slog.String("run_id", core.LogID(runID)), slog.String("owner", prev.Owner))
}

// presumedDead reports whether the owner of a run whose lease has ended is
// to be taken for dead: only once the lease stayed ended for a lease TTL
// while this reader could read the log, so that an owner that could not
// renew during a store outage gets the time to renew after it, and never
// when this process runs the run (its owner is alive).
func (rh *Handler[S]) presumedDead(runID string, expiredAt *time.Time) bool {
	if expiredAt.IsZero() {
		*expiredAt = time.Now()
		return false
	}
	if time.Since(*expiredAt) < rh.cfg.leaseTTL {
		return false
	}
	rh.mu.Lock()
	defer rh.mu.Unlock()
	return rh.runs[runID] == nil
}

// logUnavailable is the RUN_ERROR that ends a stream whose log could not
// be read: its code is the log's error's when that is an [*agui.Error]
// with one (redislog's is [CodeStoreUnavailable]), or else
// CodeStoreUnavailable.
func logUnavailable(err error) *agui.RunError {
	code := CodeStoreUnavailable
	if e, ok := errors.AsType[*agui.Error](err); ok && e != nil && e.Code != "" {
		code = e.Code
	}
	return &agui.RunError{Code: string(code), Message: "the run's log is unavailable; rejoin from the last event id"}
}

// follower writes SSE frames of log entries to one connection.
type follower struct {
	c *core.Conn
	// buf holds the frames not yet written, in a buffer taken from bufs
	// (bufp) while there is something to write and given back after:
	// a follower waiting for events holds none.
	buf  []byte
	bufp *[]byte
	bufs *sync.Pool
	id   []byte // scratch for a frame's id
}

// Sizes of a follower's write buffer.
const (
	// writeChunk is how many bytes of frames a follower gathers before
	// writing them: one Write of many frames costs the ResponseWriter's
	// per-call work once.
	writeChunk = 32 << 10
	// maxPooledBuf is the largest buffer kept for reuse: one that carried
	// a huge frame is not pinned.
	maxPooledBuf = 4 * writeChunk
)

// grab gives the follower a write buffer from the pool, unless it has one.
func (f *follower) grab() {
	if f.bufp != nil {
		return
	}
	if p, _ := f.bufs.Get().(*[]byte); p != nil {
		f.bufp = p
	} else {
		b := make([]byte, 0, writeChunk+writeChunk/4)
		f.bufp = &b
	}
	f.buf = (*f.bufp)[:0]
}

// release gives the write buffer back; what it held is dropped.
func (f *follower) release() {
	if f.bufp == nil {
		return
	}
	if cap(f.buf) <= maxPooledBuf {
		*f.bufp = f.buf[:0]
		f.bufs.Put(f.bufp)
	}
	f.buf, f.bufp = nil, nil
}

// frame appends e as "id: <seq>\ndata: <json>\n\n", shaped for the
// connection's client; an event a pre-1.0 client does not get is not
// sent, so such a stream's ids have gaps, which a cursor does not mind.
func (f *follower) frame(e Entry) {
	data, keep := f.c.DowngradeJSON(e.Data)
	if !keep {
		return
	}
	// The log holds one line of JSON per entry, within MaxEventSize (the
	// owner framed it once), and the id is digits: this cannot fail. The
	// id's string does not escape, so it costs no allocation.
	f.id = strconv.AppendUint(f.id[:0], e.Seq, 10)
	f.grab()
	f.buf, _ = agui.AppendSSEFrame(f.buf, agui.SSEFrame{ID: string(f.id), Data: data})
}

// closing ends a stream whose run goes on in another process, as this one
// shuts down, with a RUN_ERROR (CANCELLED): every stream ends with a
// terminal event. It carries no id, as it is not in the run's log: a
// client that rejoins elsewhere with its cursor gets the rest of the run.
func (f *follower) closing() {
	f.end(&agui.RunError{Code: string(agui.CodeCancelled),
		Message: "this server is shutting down; the run goes on elsewhere and may be rejoined at its URL"})
}

// end writes ev as the stream's last frame, without an id: it is not an
// event of the run's log.
func (f *follower) end(ev agui.Event) {
	f.grab()
	f.buf, _ = agui.AppendSSE(f.buf, ev) // a RUN_ERROR, which always encodes
	f.send()
}

// send writes what was framed, flushes, and reports whether the
// client is still there. The write buffer goes back to the pool.
func (f *follower) send() bool {
	if !f.write() {
		return false
	}
	f.release()
	return f.c.Flush() == nil
}

// write writes what was framed, and reports whether the client is still
// there.
func (f *follower) write() bool {
	if len(f.buf) == 0 {
		return true
	}
	err := f.c.Write(f.buf)
	f.buf = f.buf[:0]
	return err == nil
}
