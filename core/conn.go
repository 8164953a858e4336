package core

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/agui-go/agui"
)

// Conn writes one SSE event stream to its client as a [Handler] writes
// its own, for transports other than [Handler.Serve] (package resume):
// the stream's headers before its first byte (its Content-Type, no
// caching, no buffering by proxies), the write deadline moved by the
// route's write timeout before each write ([WithWriteTimeout]), flushes,
// heartbeats when due ([WithHeartbeat]), and the shape of each event for
// its client's protocol version, as Serve would send it to that client
// ([Conn.Downgrade]). The transport frames the events itself
// ([agui.AppendSSEFrame]). A failed write or
// flush means the client is gone. A ResponseWriter that cannot flush or
// set deadlines is used as it is, and logged once per handler, as Serve
// does.
//
// A Conn is not safe for concurrent use: the request's goroutine writes
// its stream.
type Conn struct {
	t          *transport
	ctx        context.Context
	w          http.ResponseWriter
	rc         *http.ResponseController
	runID      string
	served     string // the version the client is served (agui.ServedVersion)
	legacy     bool   // the client is older than 1.0
	started    bool
	noDeadline bool
	lossy      bool // the first lossy downgrade was logged
	lastWrite  time.Time
}

// Conn returns the [Conn] writing w, the stream of the run runID, for a
// client that declared protocol version version: the protocolVersion of
// its RunAgentInput, "" for a client older than 1.0. ctx is the
// request's, for the log lines the Conn writes.
func (h *Handler[S]) Conn(ctx context.Context, w http.ResponseWriter, runID, version string) *Conn {
	return &Conn{t: &h.t, ctx: ctx, w: w, rc: http.NewResponseController(w), runID: runID,
		served: agui.ServedVersion(version), legacy: version == ""}
}

// setStreamHeaders sets the headers of an event stream in format f: its
// Content-Type, no caching, and no buffering by proxies
// (X-Accel-Buffering: no), which would hold events back. Serve and a Conn
// set the same ones.
func setStreamHeaders(h http.Header, f agui.Format) {
	// One array holds the three values, where Header.Set allocates one
	// apiece; each value's slice is capped, so a later Add copies it
	// rather than writing over the next.
	v := make([]string, 3)
	v[0], v[1], v[2] = f.ContentType(), "no-cache", "no"
	h["Content-Type"] = v[0:1:1]
	h["Cache-Control"] = v[1:2:2]
	h["X-Accel-Buffering"] = v[2:3:3]
}

// Downgrade returns ev, an event as [agui.LatestProtocolVersion] has it
// (see [DeliverLatest]), as [Handler.Serve] would send it to the Conn's
// client: ev itself for a 1.1 client; [agui.Downgrade10]'s for a 1.0 one;
// [agui.Downgrade]'s for a pre-1.0 one, whose first lossy downgrade is
// logged as Serve logs it; RUN_STARTED stating the version the client is
// served ([agui.ServedVersion]). false means the client gets nothing for ev. An event
// already shaped for the client comes back as it is.
func (c *Conn) Downgrade(ev agui.Event) (agui.Event, bool) {
	if c.served == agui.LatestProtocolVersion {
		return ev, true
	}
	if rs, ok := ev.(*agui.RunStarted); ok && rs.ProtocolVersion != c.served {
		cp := *rs
		cp.ProtocolVersion = c.served
		ev = &cp
	}
	if !c.legacy {
		return agui.Downgrade10(ev), true
	}
	downgraded(c.ctx, &c.lossy, c.t.cfg.logger, "", c.runID, ev)
	return agui.Downgrade(ev)
}

// DowngradeJSON is [Conn.Downgrade] for an encoded event: data is the
// JSON of an event as [agui.LatestProtocolVersion] has it (its AppendJSON,
// as a run log keeps it), and the result is the JSON the Conn's client
// reads, data itself when that is the same. false means the client gets
// nothing for data. Only what a client of another version reads
// differently is decoded: for a 1.1 client nothing, for a 1.0 one the
// events whose JSON carries an encryptedValueType or a protocolVersion
// key, for a pre-1.0 one every event. JSON that does not decode is
// returned as it is.
func (c *Conn) DowngradeJSON(data []byte) ([]byte, bool) {
	if c.served == agui.LatestProtocolVersion {
		return data, true
	}
	if !c.legacy && !mayDiffer10(data) {
		return data, true
	}
	ev, err := agui.DecodeEvent(data)
	if err != nil {
		return data, true
	}
	out, keep := c.Downgrade(ev)
	if !keep {
		return nil, false
	}
	if out == ev {
		return data, true
	}
	if d, err := out.AppendJSON(nil); err == nil {
		return d, true
	}
	return data, true
}

// mayDiffer10 reports whether the event whose JSON is data may read
// otherwise for a 1.0 client: whether it has a key that ends in
// "ValueType" (encryptedValueType) or "Version" (RUN_STARTED's
// protocolVersion). Our encoding writes keys unescaped, so an event
// without one is the same in 1.0; a string that merely ends so costs a
// decode, not a wrong stream. It looks for the rare "V", not a quote,
// which JSON is full of: bytes.Contains stops at every quote, and cost a
// resumable stream a third of its time.
func mayDiffer10(data []byte) bool {
	for {
		i := bytes.IndexByte(data, 'V')
		if i < 0 {
			return false
		}
		data = data[i+1:]
		if bytes.HasPrefix(data, []byte(`alueType"`)) || bytes.HasPrefix(data, []byte(`ersion"`)) {
			return true
		}
	}
}

// Write writes p, the stream's frames, after the stream's headers and
// status 200 the first time, with the write deadline moved ahead first. An
// error means the client is gone.
func (c *Conn) Write(p []byte) error {
	c.start()
	c.lastWrite = time.Now()
	c.extendDeadline(c.lastWrite)
	_, err := c.w.Write(p)
	return err
}

// Flush sends what was written, the stream's headers at least. An error
// means the client is gone; a ResponseWriter that cannot flush is not one.
func (c *Conn) Flush() error {
	c.start()
	if err := c.rc.Flush(); err != nil {
		if errors.Is(err, http.ErrNotSupported) {
			c.t.warnOnce(c.ctx, &c.t.warned.flush, msgNoFlush, err)
			return nil
		}
		return err
	}
	return nil
}

// HeartbeatDue reports whether the stream has been silent for the route's
// heartbeat interval, so that its next write is to carry
// [agui.SSEHeartbeat]. It is never due on a route without heartbeats.
func (c *Conn) HeartbeatDue() bool {
	hb := c.t.cfg.heartbeat
	return hb > 0 && time.Since(c.lastWrite) >= hb
}

// start sets the stream's headers and writes its status, once.
func (c *Conn) start() {
	if c.started {
		return
	}
	c.started = true
	setStreamHeaders(c.w.Header(), agui.FormatSSE)
	c.w.WriteHeader(http.StatusOK)
}

// extendDeadline moves the write deadline the route's write timeout
// ahead of now (see streamWriter.extendDeadlineFrom).
func (c *Conn) extendDeadline(now time.Time) {
	if c.noDeadline {
		return
	}
	if err := c.t.setDeadline(c.rc, now); err != nil {
		c.noDeadline = true
		if errors.Is(err, http.ErrNotSupported) {
			c.t.warnOnce(c.ctx, &c.t.warned.deadline, msgNoDeadline, err)
		}
	}
}

// Warnings of a ResponseWriter that lacks what a stream needs.
const (
	msgNoFlush    = "core: the ResponseWriter cannot flush; events reach the client late"
	msgNoDeadline = "core: the ResponseWriter cannot set write deadlines (a middleware may hide Unwrap); a server WriteTimeout will cut long runs"
)

// setDeadline moves rc's write deadline the write timeout ahead of now,
// or clears it when the timeout is 0.
func (t *transport) setDeadline(rc *http.ResponseController, now time.Time) error {
	var d time.Time
	if t.cfg.writeTimeout > 0 {
		d = now.Add(t.cfg.writeTimeout)
	}
	return rc.SetWriteDeadline(d)
}

// warnOnce logs a transport limitation once per handler.
func (t *transport) warnOnce(ctx context.Context, done *atomic.Bool, msg string, err error) {
	if done.CompareAndSwap(false, true) {
		t.cfg.logger.LogAttrs(ctx, slog.LevelWarn, msg, slog.Any("error", err))
	}
}

// downgraded logs the first lossy downgrade of a stream for a pre-1.0
// client, which *warned records.
func downgraded(ctx context.Context, warned *bool, l *slog.Logger, threadID, runID string, ev agui.Event) {
	if *warned || !agui.DowngradeLossy(ev) {
		return
	}
	*warned = true
	attrs := make([]slog.Attr, 0, 3)
	if threadID != "" {
		attrs = append(attrs, slog.String("thread_id", LogID(threadID)))
	}
	attrs = append(attrs, slog.String("run_id", LogID(runID)), slog.String("event", string(ev.Type())))
	l.LogAttrs(ctx, slog.LevelWarn, "core: lossy downgrade for a pre-1.0 client", attrs...)
}
