package core

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/agui-go/agui"
)

// stream is the emitting core of one run, shared by its RunContext, every
// Emitter and every handle, so that nesting subagents is the same code path
// at every depth.
//
// One mutex serialises verify-then-enqueue: the order the verifier accepted
// events in is the order the consumer receives them, whichever goroutines
// emitted them. The same mutex guards the registry of open things the
// driver closes when the agent returns.
type stream struct {
	// done and cancelled stand in for the run's context: emit methods take
	// no context (they must be callable from a deferred End), so the stream
	// keeps the two things it needs from it.
	done      <-chan struct{}
	cancelled func() *agui.Error

	mu       sync.Mutex
	verifier *agui.Verifier
	// q is the current queue, written under mu. It starts small and is
	// replaced by a larger one (up to bound) when it fills, so a run that
	// emits little holds little (see queue).
	q     *queue
	bound int
	// ended is set, and queue closed, once the terminal event is decided;
	// terminal is then read by the driver after it sees the queue closed.
	ended    bool
	terminal agui.Event
	seq      uint64
	open     map[uint64]*entry
	// size keeps events within the frame limit; refused is the first
	// error of an event it refused, which fails a run the agent would
	// otherwise end in success.
	size    sizer
	refused error
}

// entry is one open thing: a message, tool call, reasoning block, step or
// subagent invocation.
type entry struct {
	// scope is the Emitter the thing was opened through.
	scope *Emitter
	// ends are the terminators End and the driver emit.
	ends []agui.Event
	// inner is, for a subagent, the Emitter it opened: everything opened
	// through it is closed before the subagent itself.
	inner *Emitter
}

// initialQueue is the capacity a run's queue starts with.
const initialQueue = 2

// queue is one generation of a run's queue. When it fills before reaching
// the bound, the producer links a larger one as next and then closes ch;
// the consumer, finding ch closed, moves on to next, so every event is
// received once and in order. A closed ch with no next is the end.
type queue struct {
	ch   chan agui.Event
	next atomic.Pointer[queue]
}

func newStream(ctx context.Context, bound int) *stream {
	s := &stream{
		done:      ctx.Done(),
		cancelled: func() *agui.Error { return cancelledError(ctx) },
		verifier:  agui.NewVerifier(),
		bound:     bound,
		open:      make(map[uint64]*entry),
		size:      sizer{limit: agui.MaxEventSize},
	}
	s.q = &queue{ch: make(chan agui.Event, min(bound, initialQueue))}
	return s
}

// grow replaces the full queue with one four times larger, at most bound.
func (s *stream) grow() {
	old := s.q
	s.q = &queue{ch: make(chan agui.Event, min(cap(old.ch)*4, s.bound))}
	old.next.Store(s.q)
	close(old.ch)
}

// send verifies ev and queues it for the consumer.
func (s *stream) send(ev agui.Event) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sendLocked(ev)
}

// sendLocked verifies ev and queues it, blocking while the queue is full
// until the consumer reads or the run is cancelled. A verification failure
// returns at once and queues nothing. A content delta over the frame
// limit goes out as several deltas; any other event over it is refused
// with a SERIALIZATION error (see sizer).
func (s *stream) sendLocked(ev agui.Event) error {
	pieces, err := s.size.split(ev)
	if err == nil && pieces == nil {
		err = s.size.check(ev)
	}
	if err != nil {
		if s.refused == nil {
			s.refused = err
		}
		return err
	}
	for _, p := range pieces {
		if err := s.sendOneLocked(p); err != nil {
			return err
		}
	}
	if pieces != nil {
		return nil
	}
	return s.sendOneLocked(ev)
}

// sendOneLocked verifies and queues one event that fits.
func (s *stream) sendOneLocked(ev agui.Event) error {
	if s.ended {
		return agui.NewError(agui.CodeProtocol, "core: "+string(ev.Type())+" emitted after the agent returned")
	}
	// Checked first so that every emit after cancellation fails, even when
	// the queue has room.
	select {
	case <-s.done:
		return s.cancelled()
	default:
	}
	if err := s.verifier.Observe(ev); err != nil {
		return err
	}
	// Room in the queue is the common case; a one-channel send is much
	// cheaper than a select over two.
	select {
	case s.q.ch <- ev:
		return nil
	default:
	}
	if cap(s.q.ch) < s.bound {
		s.grow()
		s.q.ch <- ev // the new queue is empty: this does not block
		return nil
	}
	select {
	case s.q.ch <- ev:
		return nil
	case <-s.done:
		return s.cancelled()
	}
}

// openEntry emits starts and registers the thing they open under scope,
// returning its key. When only some starts went out, the entry keeps the
// terminators matching those, so a half-open reasoning block still closes.
func (s *stream) openEntry(scope, inner *Emitter, starts, ends []agui.Event) (uint64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var err error
	sent := 0
	for _, ev := range starts {
		if err = s.sendLocked(ev); err != nil {
			break
		}
		sent++
	}
	if sent == 0 {
		return 0, err
	}
	s.seq++
	s.open[s.seq] = &entry{scope: scope, inner: inner, ends: ends[len(ends)-sent:]}
	return s.seq, err
}

// closeEntry ends the thing registered under key with evs, or with its own
// terminators when evs is nil, after closing everything opened inside it.
// Closing something already closed does nothing, which makes End
// idempotent.
func (s *stream) closeEntry(key uint64, evs []agui.Event) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	en, ok := s.open[key]
	if !ok {
		return nil
	}
	if en.inner != nil {
		if err := s.closeWithinLocked(en.inner); err != nil {
			return err
		}
	}
	delete(s.open, key)
	if evs == nil {
		evs = en.ends
	}
	for _, ev := range evs {
		if err := s.sendLocked(ev); err != nil {
			return err
		}
	}
	return nil
}

// closeAll closes everything still open, innermost first.
func (s *stream) closeAll() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closeWithinLocked(nil)
}

// closeWithinLocked closes everything opened through scope or any Emitter
// nested in it (everything, for a nil scope) in reverse order of opening.
// Reverse order is innermost first: whatever was opened inside a step,
// message or subagent was opened after it.
func (s *stream) closeWithinLocked(scope *Emitter) error {
	var keys []uint64
	for k, en := range s.open {
		if scope == nil || en.scope.within(scope) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range slices.Backward(keys) {
		ends := s.open[k].ends
		delete(s.open, k)
		for _, ev := range ends {
			if err := s.sendLocked(ev); err != nil {
				return err
			}
		}
	}
	return nil
}

// observe verifies ev without queueing it: RUN_STARTED, which the driver
// delivers itself.
func (s *stream) observe(ev agui.Event) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.verifier.Observe(ev)
}

// finish verifies the terminal event and, when the verifier accepts it or
// force is set, records it and closes the queue. Both happen in one
// critical section, so no emit can slip in between the terminal event's
// verification and the end of the queue; emits from then on fail instead
// of sending on a closed channel.
func (s *stream) finish(term agui.Event, force bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !force {
		if s.refused != nil {
			return s.refused
		}
		if err := s.size.check(term); err != nil {
			return err
		}
	}
	if err := s.verifier.Observe(term); err != nil && !force {
		return err
	}
	s.terminal = term
	s.ended = true
	close(s.q.ch)
	return nil
}

// cancelledError returns the CANCELLED error for a cancelled context,
// keeping the context's cause.
func cancelledError(ctx context.Context) *agui.Error {
	return &agui.Error{Code: agui.CodeCancelled, Message: "run cancelled", Err: context.Cause(ctx)}
}
