package core

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agui-go/agui"
)

// streamWriter writes one run's events to its client. It is used by the
// handler goroutine only, which is what makes it the only writer of the
// ResponseWriter.
type streamWriter struct {
	w http.ResponseWriter
	// rc is held by value: one allocation fewer per run.
	rc     http.ResponseController
	format agui.Format
	legacy bool
	cfg    *handlerConfig
	t      *transport // its warnings and deadline
	cancel func(error)
	in     *agui.RunAgentInput
	logCtx context.Context

	// buf holds the frames of the current burst not yet written, in a
	// buffer taken from bufs (bufp) and given back at each flush.
	buf  []byte
	bufp *[]byte
	bufs *sync.Pool
	// pending counts the events in buf.
	pending     int
	started     bool // headers are out
	broken      bool // the client is gone
	terminal    bool // a terminal event was written
	noDeadline  bool
	lossyWarned bool
	lastWrite   time.Time // when the last burst or heartbeat started
	lastActive  time.Time // the last write or deadline move
	// burstWrites counts the writes since the deadline was last moved
	// within the current burst; 0 between bursts.
	burstWrites int
	unflushed   bool // written since the last flush
	// dropped is set when an event could not be framed: the run then
	// cannot end in success (see handle).
	dropped bool
	// forced is closed when the stream must end without its run;
	// abandoned is set once it did (see abandon).
	forced    <-chan struct{}
	abandoned bool

	// What the run's log line reports.
	events  int
	outcome string
	code    string
	message string // RUN_ERROR's message
	// refused is set when the run refused its input before anything was
	// written; the handler answers it after the run has been joined.
	refused *RequestError
}

// runQueue is what the writer drives: the run's queue, taken from by the
// writer's own goroutine, which hands what it takes on to the sink.
// *Consumer is the one implementation outside tests.
type runQueue interface {
	// ready returns a channel that signals events in the queue (or its
	// end), or nil once the stream is over.
	Ready() <-chan struct{}
	// take passes on everything queued, and the terminal event once the
	// queue is closed, and returns how many events it took; with nothing
	// queued it returns 0 without waiting.
	Take() int
	// close ends the run however the writer stopped and joins its
	// goroutines.
	Close()
	// abandon ends the run without joining its agent, for a stream the
	// writer ended at a shutdown deadline (see streamWriter.abandon).
	Abandon()
	// trim drops what the run keeps for bursts, when the stream has been
	// quiet for an idle period.
	Trim()
	// follow makes every event queued from now on wake the writer: until
	// then only a full queue and the run's end do (see
	// streamWriter.first).
	follow()
}

// loop writes the run's events until the stream is over or the client is
// gone, selecting over the run's queue, the idle timer and the request's
// end. It drains whatever is already queued before flushing, so a burst
// costs one flush and a trickle one per event.
func (s *streamWriter) loop(done context.Context, q runQueue) {
	timer := time.NewTimer(firstBurstWait)
	defer timer.Stop()
	if !s.first(done, q, timer.C) {
		return
	}
	period := s.idlePeriod()
	var idleC <-chan time.Time
	if period > 0 {
		timer.Reset(period)
		idleC = timer.C
	} else {
		timer.Stop()
	}
	for {
		ready := q.Ready()
		if ready == nil || s.broken {
			return
		}
		select {
		case <-ready:
			s.burst(q, q.Take())
			s.flush()
		case <-idleC:
			// The timer is not moved per burst: when it fires early, it
			// is set for the rest of the period since the last activity.
			if wait := period - time.Since(s.lastActive); wait > 0 {
				timer.Reset(wait)
				continue
			}
			s.idle()
			q.Trim()
			timer.Reset(period)
		case <-done.Done():
			s.gone()
			return
		case <-s.forced:
			s.abandon()
			return
		}
	}
}

// firstBurstWait is how long the writer holds RUN_STARTED back for the
// agent's first events (see streamWriter.first): far longer than a short
// run takes, far shorter than a model's first token.
const firstBurstWait = time.Millisecond

// first writes RUN_STARTED (written when the run began) with the agent's
// first burst, and reports whether the stream goes on. This is one of the
// flush policy's two exceptions to "flush what is queued at once" (the
// other: nothing is flushed after the terminal event, see flush): the
// run's queue does not wake the writer for the agent's first events
// (stream.held, until Consumer.follow), only when it fills, when the run
// ends or after firstBurstWait (wait fires). So an agent that answers at once (a short
// run) costs no hand-off but the last, and its whole stream, the terminal
// event included, one write (see flush); an agent that takes its time (a
// model call) has RUN_STARTED flushed alone within firstBurstWait. From
// then on every event queued wakes the writer.
func (s *streamWriter) first(done context.Context, q runQueue, wait <-chan time.Time) bool {
	if ready := q.Ready(); ready != nil {
		select {
		case <-ready:
		case <-wait:
		case <-done.Done():
			s.gone()
			return false
		case <-s.forced:
			s.abandon()
			return false
		}
	}
	q.follow()
	s.burst(q, s.drain(q))
	s.flush()
	return true
}

// abandon ends the stream without its run, at a shutdown deadline: the
// client gets RUN_ERROR (CANCELLED) in place of the terminal event the
// agent never let the run produce.
func (s *streamWriter) abandon() {
	s.abandoned = true
	if s.terminal || s.broken {
		return
	}
	s.handle(&agui.RunError{Message: "server shutting down", Code: string(agui.CodeCancelled)})
	s.flush()
}

// burst takes the rest of a burst before its flush; n is how many events
// the take that started it took. While the queue keeps refilling, the
// writer yields to let the agent queue more, and flushes only once a
// yield found nothing new (or the burst has filled a write): an agent
// emitting fast costs one flush, and one write system call, per many
// events rather than per few; a single event (a trickle, an agent that
// pauses) is flushed at once.
func (s *streamWriter) burst(q runQueue, n int) {
	if n <= 1 {
		n = s.drain(q)
	}
	for n > 0 && !s.unflushed && !s.broken {
		runtime.Gosched()
		n = s.drain(q)
	}
}

// drain takes the events already queued, without waiting, and returns
// how many it took.
func (s *streamWriter) drain(q runQueue) int {
	if s.broken || q.Ready() == nil {
		return 0
	}
	return q.Take()
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
		s.buf = append(s.buf, agui.SSEHeartbeat...)
		s.write()
		s.flush()
		return
	}
	s.extendDeadline()
}

// handle writes one event and reports whether the stream may go on; it
// is the yield function of the run's sink.
func (s *streamWriter) handle(ev agui.Event) bool {
	if s.legacy {
		downgraded(s.logCtx, &s.lossyWarned, s.cfg.logger, s.in.ThreadID, s.in.RunID, ev)
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
	if s.buf == nil {
		s.takeBuf()
	}
	mark := len(s.buf)
	var err error
	if s.buf, err = s.format.AppendFrame(s.buf, ev); err != nil {
		s.buf = s.buf[:mark]
		// The stream cannot carry this event: end the run with a coded
		// error rather than send a broken frame.
		s.cfg.logger.LogAttrs(s.logCtx, slog.LevelError, "core: event not encodable",
			slog.String("thread_id", LogID(s.in.ThreadID)), slog.String("run_id", LogID(s.in.RunID)), slog.String("event", string(ev.Type())), slog.Any("error", err))
		switch ev.(type) {
		case *agui.RunFinished, *agui.RunError:
			// Nothing follows a terminal event, so its stand-in is ours
			// to send.
			ev = &agui.RunError{Message: "the run's last event could not be encoded", Code: string(agui.CodeSerialization)}
			if s.buf, err = s.format.AppendFrame(s.buf, ev); err != nil {
				s.buf = s.buf[:mark]
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
		setStreamHeaders(s.w.Header(), s.format)
	}
	s.pending++
	// The burst's frames go out in one Write when the buffer is full, at
	// the flush that ends the burst, or with the terminal event, which is
	// written before it is reported as the outcome.
	switch ev.(type) {
	case *agui.RunFinished, *agui.RunError:
		if !s.write() {
			return false
		}
	default:
		if len(s.buf) >= writeChunk && !s.write() {
			return false
		}
		return true
	}
	switch e := ev.(type) {
	case *agui.RunFinished:
		s.terminal = true
		s.outcome, s.code = string(agui.OutcomeSuccess), ""
		if e.Outcome != nil {
			s.outcome = string(e.Outcome.Type)
		}
	case *agui.RunError:
		s.terminal = true
		s.outcome, s.code, s.message = "error", e.Code, e.Message
	}
	return true
}

// writeChunk is how many bytes of frames a burst gathers before writing
// them: one Write of many frames costs the ResponseWriter's per-call work
// and the connection's write system calls once instead of per event.
const writeChunk = 32 << 10

// maxPooledBuf is the largest write buffer kept for reuse: a burst that
// carried one huge frame does not pin its buffer.
const maxPooledBuf = 4 * writeChunk

// firstBuf is the size of a new write buffer. A buffer grows as bursts
// fill it and goes back to the pool grown, so busy streams soon share a
// few of writeChunk's size; a new one starts small, as an idle stream's
// first burst (RUN_STARTED) and a short run need little. 4,000 idle
// streams opened at once left some 33 new buffers of 40 KiB in the pool:
// a third of a KiB per stream of what the idle figure counts.
const firstBuf = 2 << 10

// takeBuf gives the stream a write buffer from the handler's pool.
func (s *streamWriter) takeBuf() {
	if s.bufs != nil {
		if p, _ := s.bufs.Get().(*[]byte); p != nil {
			s.bufp, s.buf = p, (*p)[:0]
			return
		}
	}
	b := make([]byte, 0, firstBuf)
	s.bufp, s.buf = &b, b
}

// releaseBuf gives the write buffer back between bursts; buf must be
// empty.
func (s *streamWriter) releaseBuf() {
	if s.bufp == nil || s.bufs == nil {
		s.buf, s.bufp = nil, nil
		return
	}
	if cap(s.buf) <= maxPooledBuf {
		*s.bufp = s.buf[:0]
		s.bufs.Put(s.bufp)
	}
	s.buf, s.bufp = nil, nil
}

// deadlineEvery is how many writes of one burst may share a write
// deadline: moving the deadline costs a clock read and a timer update, so
// it is moved once per burst and again every deadlineEvery writes.
const deadlineEvery = 64

// write writes the frames in s.buf in one Write. The first write of a
// burst (the events taken before one flush) moves the write deadline, and
// so does every deadlineEvery-th write after it, so a client that stops
// reading is still cut off within writeTimeout of the write it stalls.
func (s *streamWriter) write() bool {
	if len(s.buf) == 0 {
		return !s.broken
	}
	if s.burstWrites == 0 || s.burstWrites >= deadlineEvery {
		s.burstWrites = 0
		s.lastWrite = time.Now()
		s.extendDeadlineFrom(s.lastWrite)
	}
	s.burstWrites++
	_, err := s.w.Write(s.buf)
	s.buf = s.buf[:0]
	n := s.pending
	s.pending = 0
	if err != nil {
		s.gone()
		return false
	}
	s.events += n
	s.unflushed = true
	return true
}

// flush writes what the burst gathered and sends everything written since
// the last flush. A flush error means the client is gone.
func (s *streamWriter) flush() {
	if !s.broken {
		s.write()
	}
	s.buf, s.pending = s.buf[:0], 0
	s.releaseBuf()
	s.burstWrites = 0
	if !s.unflushed || s.broken || s.terminal {
		// After the terminal event nothing more is written: the
		// handler's return ends the response, and net/http sends what
		// is left with the response's end in one write (on HTTP/1.1 the
		// last chunk, or a Content-Length when nothing went out
		// before), where a flush here would cost a write of its own.
		return
	}
	s.unflushed = false
	if err := s.rc.Flush(); err != nil {
		if errors.Is(err, http.ErrNotSupported) {
			s.t.warnOnce(s.logCtx, &s.t.warned.flush, msgNoFlush, err)
			return
		}
		s.gone()
	}
}

// extendDeadline moves the connection's write deadline writeTimeout ahead
// (or clears it when writeTimeout is 0), so a server's WriteTimeout does
// not cut a long run.
func (s *streamWriter) extendDeadline() { s.extendDeadlineFrom(time.Now()) }

// extendDeadlineFrom is extendDeadline with the clock already read.
func (s *streamWriter) extendDeadlineFrom(now time.Time) {
	s.lastActive = now
	if s.noDeadline {
		return
	}
	if err := s.t.setDeadline(&s.rc, now); err != nil {
		s.noDeadline = true
		if errors.Is(err, http.ErrNotSupported) {
			s.t.warnOnce(s.logCtx, &s.t.warned.deadline, msgNoDeadline, err)
		}
	} else if s.cfg.writeTimeout == 0 {
		s.noDeadline = true // cleared for the whole stream
	}
}

// warnings are the transport limitations a handler has logged.
type warnings struct{ flush, deadline atomic.Bool }

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
