package core

import (
	"context"
	"errors"
	"github.com/agui-go/agui"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"
)

// streamWriter writes one run's events to its client. It is used by the
// handler goroutine only, which is what makes it the only writer of the
// ResponseWriter.
type streamWriter struct {
	w      http.ResponseWriter
	rc     *http.ResponseController
	format agui.Format
	legacy bool
	cfg    *handlerConfig
	warned *warnings
	cancel func(error)
	in     *agui.RunAgentInput
	logCtx context.Context

	buf         []byte
	started     bool // headers are out
	broken      bool // the client is gone
	terminal    bool // a terminal event was written
	noDeadline  bool
	lossyWarned bool
	// dropped is set when an event could not be framed: the run then
	// cannot end in success (see handle).
	dropped bool
	// forced is closed when the stream must end without its run;
	// abandoned is set once it did (see abandon).
	forced    <-chan struct{}
	abandoned bool
	lastWrite time.Time

	// What the run's log line reports.
	events  int
	outcome string
	code    string
	// refused is set when the run refused its input before anything was
	// written; the handler answers it after the run has been joined.
	refused *RequestError
}

// loop writes items until the sequence ends or the client is gone. It
// drains whatever is already queued before flushing, so a burst costs one
// flush and a trickle one per event.
func (s *streamWriter) loop(done context.Context, items <-chan item) {
	period := s.idlePeriod()
	var idle *time.Timer
	var idleC <-chan time.Time
	defer func() {
		if idle != nil {
			idle.Stop()
		}
	}()
	for {
		select {
		case it, ok := <-items:
			if !ok {
				return
			}
			open := s.handle(it) && s.drain(items)
			s.flush()
			if !open || s.broken {
				return
			}
			if period > 0 {
				if idle == nil {
					idle = time.NewTimer(period)
					idleC = idle.C
				} else {
					idle.Reset(period)
				}
			}
		case <-idleC:
			s.idle()
			if s.broken {
				return
			}
			idle.Reset(period)
		case <-done.Done():
			s.gone()
			return
		case <-s.forced:
			s.abandon()
			return
		}
	}
}

// abandon ends the stream without its run, at a shutdown deadline: the
// client gets RUN_ERROR (CANCELLED) in place of the terminal event the
// agent never let the run produce.
func (s *streamWriter) abandon() {
	s.abandoned = true
	if s.terminal || s.broken {
		return
	}
	if !s.started {
		s.refused = &RequestError{Status: http.StatusServiceUnavailable, Code: CodeUnavailable,
			Message: "the server is shutting down"}
		s.outcome, s.code = "refused", CodeUnavailable
		return
	}
	s.handle(item{ev: &agui.RunError{Message: "server shutting down", Code: string(agui.CodeCancelled)}})
	s.flush()
}

// drain handles the items already queued, without waiting, and reports
// whether the sequence may go on.
func (s *streamWriter) drain(items <-chan item) bool {
	for !s.broken {
		select {
		case it, ok := <-items:
			if !ok || !s.handle(it) {
				return false
			}
		default:
			return true
		}
	}
	return false
}

// idlePeriod is how often an idle stream is looked after: heartbeats on
// SSE, and a write deadline refresh so an HTTP/2 stream's deadline does
// not fire between events.
func (s *streamWriter) idlePeriod() time.Duration {
	var p time.Duration
	if s.format == agui.FormatSSE {
		p = s.cfg.heartbeat
	}
	if half := s.cfg.writeTimeout / 2; half > 0 && (p == 0 || half < p) {
		p = half
	}
	return p
}

// idle writes a heartbeat when one is due, and otherwise keeps the write
// deadline ahead.
func (s *streamWriter) idle() {
	hb := s.cfg.heartbeat
	if s.format == agui.FormatSSE && hb > 0 && time.Since(s.lastWrite) >= hb {
		s.buf = append(s.buf[:0], agui.SSEHeartbeat...)
		s.write()
		s.flush()
		return
	}
	s.extendDeadline()
}

// handle writes one item and reports whether the sequence may go on.
func (s *streamWriter) handle(it item) bool {
	if it.err != nil {
		if !s.started {
			s.refused = inputRequestError(it.err)
			s.outcome, s.code = "refused", s.refused.Code
			return false
		}
		s.cfg.logger.LogAttrs(s.logCtx, slog.LevelError, "agui: run stream failed",
			slog.String("run_id", LogID(s.in.RunID)), slog.Any("error", it.err))
		return true
	}
	ev := it.ev
	if s.legacy {
		if !s.lossyWarned && agui.DowngradeLossy(ev) {
			s.lossyWarned = true
			s.cfg.logger.LogAttrs(s.logCtx, slog.LevelWarn, "agui: lossy downgrade for a pre-1.0 client",
				slog.String("run_id", LogID(s.in.RunID)), slog.String("event", string(ev.Type())))
		}
		var keep bool
		if ev, keep = agui.Downgrade(ev); !keep {
			return true
		}
	}
	if _, ok := ev.(*agui.RunFinished); ok && s.dropped {
		// An event was lost on the way: the client must not be told the
		// run succeeded.
		ev = &agui.RunError{Message: "an event could not be encoded", Code: string(agui.CodeSerialization)}
	}
	var err error
	if s.buf, err = s.format.AppendFrame(s.buf[:0], ev); err != nil {
		// The stream cannot carry this event: end the run with a coded
		// error rather than send a broken frame.
		s.cfg.logger.LogAttrs(s.logCtx, slog.LevelError, "agui: event not encodable",
			slog.String("run_id", LogID(s.in.RunID)), slog.String("event", string(ev.Type())), slog.Any("error", err))
		switch ev.(type) {
		case *agui.RunFinished, *agui.RunError:
			// Nothing follows a terminal event, so its stand-in is ours
			// to send.
			ev = &agui.RunError{Message: "the run's last event could not be encoded", Code: string(agui.CodeSerialization)}
			if s.buf, err = s.format.AppendFrame(s.buf[:0], ev); err != nil {
				return false
			}
		default:
			s.dropped = true
			s.cancel(&agui.Error{Code: agui.CodeSerialization, Message: "an event could not be encoded", Err: err})
			return true
		}
	}
	if !s.started {
		s.started = true
		h := s.w.Header()
		h.Set("Content-Type", s.format.ContentType())
		h.Set("Cache-Control", "no-cache")
		h.Set("X-Accel-Buffering", "no")
	}
	if !s.write() {
		return false
	}
	s.events++
	switch e := ev.(type) {
	case *agui.RunFinished:
		s.terminal = true
		s.outcome, s.code = string(agui.OutcomeSuccess), ""
		if e.Outcome != nil {
			s.outcome = string(e.Outcome.Type)
		}
	case *agui.RunError:
		s.terminal = true
		s.outcome, s.code = "error", e.Code
	}
	return true
}

// write writes s.buf in one Write, after moving the write deadline.
func (s *streamWriter) write() bool {
	s.extendDeadline()
	if _, err := s.w.Write(s.buf); err != nil {
		s.gone()
		return false
	}
	s.lastWrite = time.Now()
	return true
}

// flush sends what was written. A flush error means the client is gone.
func (s *streamWriter) flush() {
	if !s.started || s.broken {
		return
	}
	if err := s.rc.Flush(); err != nil {
		if errors.Is(err, http.ErrNotSupported) {
			s.warnOnce(&s.warned.flush, "agui: the ResponseWriter cannot flush; events reach the client late", err)
			return
		}
		s.gone()
	}
}

// extendDeadline moves the connection's write deadline writeTimeout ahead
// (or clears it when writeTimeout is 0), so a server's WriteTimeout does
// not cut a long run.
func (s *streamWriter) extendDeadline() {
	if s.noDeadline {
		return
	}
	var d time.Time
	if s.cfg.writeTimeout > 0 {
		d = time.Now().Add(s.cfg.writeTimeout)
	}
	if err := s.rc.SetWriteDeadline(d); err != nil {
		s.noDeadline = true
		if errors.Is(err, http.ErrNotSupported) {
			s.warnOnce(&s.warned.deadline, "agui: the ResponseWriter cannot set write deadlines (a middleware may hide Unwrap); a server WriteTimeout will cut long runs", err)
		}
	} else if s.cfg.writeTimeout == 0 {
		s.noDeadline = true // cleared for the whole stream
	}
}

// warnings are the transport limitations a handler has logged.
type warnings struct{ flush, deadline atomic.Bool }

// warnOnce logs a transport limitation once per handler.
func (s *streamWriter) warnOnce(done *atomic.Bool, msg string, err error) {
	if done.CompareAndSwap(false, true) {
		s.cfg.logger.LogAttrs(s.logCtx, slog.LevelWarn, msg, slog.Any("error", err))
	}
}

// gone records that the client went away and cancels the run at once.
func (s *streamWriter) gone() {
	if s.broken {
		return
	}
	s.broken = true
	s.cancel(errClientGone)
	if !s.terminal {
		s.outcome, s.code = "disconnected", string(agui.CodeDisconnected)
	}
}
