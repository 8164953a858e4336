package core

import (
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
// heartbeats when due ([WithHeartbeat]), and the downgrade of each event
// for a pre-1.0 client. The transport
// frames the events itself ([agui.AppendSSEFrame]). A failed write or
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
	legacy     bool
	started    bool
	noDeadline bool
	lossy      bool // the first lossy downgrade was logged
	lastWrite  time.Time
}

// Conn returns the [Conn] writing w, the stream of the run runID, for a
// pre-1.0 client when legacy is set. ctx is the request's, for the log
// lines the Conn writes.
func (h *Handler[S]) Conn(ctx context.Context, w http.ResponseWriter, runID string, legacy bool) *Conn {
	return &Conn{t: &h.t, ctx: ctx, w: w, rc: http.NewResponseController(w), runID: runID, legacy: legacy}
}

// setStreamHeaders sets the headers of an event stream in format f: its
// Content-Type, no caching, and no buffering by proxies
// (X-Accel-Buffering: no), which would hold events back. Serve and a Conn
// set the same ones.
func setStreamHeaders(h http.Header, f agui.Format) {
	h.Set("Content-Type", f.ContentType())
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
}

// Downgrade returns ev as the Conn's client reads it: ev itself for a 1.0
// client, [agui.Downgrade]'s for a pre-1.0 one, whose first lossy
// downgrade is logged as [Handler.Serve] logs it. false means the client
// gets nothing for ev.
func (c *Conn) Downgrade(ev agui.Event) (agui.Event, bool) {
	if !c.legacy {
		return ev, true
	}
	downgraded(c.ctx, &c.lossy, c.t.cfg.logger, "", c.runID, ev)
	return agui.Downgrade(ev)
}

// Legacy reports whether the Conn's client speaks a pre-1.0 dialect.
func (c *Conn) Legacy() bool { return c.legacy }

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
