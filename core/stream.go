package core

import (
	"context"
	"slices"
	"sync"

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
	// ctx is the run's context and done its Done channel: emit methods
	// take no context (they must be callable from a deferred End), so the
	// stream keeps it (see cancelled).
	ctx  context.Context
	done <-chan struct{}

	mu       sync.Mutex
	verifier *agui.Verifier
	// ended is set once the terminal event is decided; terminal is then
	// read by the driver after it sees the queue closed.
	ended    bool
	terminal agui.Event
	// The queue: events verified and not yet taken by the consumer, who
	// takes them all at once (see take), so a burst costs one hand-off
	// rather than one per event. queued, closed and full are guarded by
	// qmu, which is held only briefly and never while waiting, so the
	// consumer can take while an emitter holding mu waits for room.
	qmu    sync.Mutex
	queued []item
	closed bool // the terminal event is decided: nothing more is queued
	full   bool // an emitter waits for room
	// held counts the holds in effect: while there are any, queueing to
	// an empty queue does not wake the consumer; a full queue and the
	// queue's end still do. The holds are the agent's (Emitter.Coalesce)
	// and, while firstHeld, the consumer's own wait for the agent's first
	// burst (see streamWriter.first): waking the consumer per first event
	// is what hands a short run back and forth between the two goroutines.
	held      int
	firstHeld bool
	bound     int
	// wake holds a value when events were queued to an empty queue, and
	// is closed with the queue; room holds a value when the consumer took
	// from a queue an emitter found full. room is made (under qmu) when an
	// emitter first finds the queue full: most runs never do, and an idle
	// stream holds one channel fewer.
	wake chan struct{}
	room chan struct{}

	// reuse is set, before the agent starts, when the consumer keeps no
	// event after delivering it (the HTTP writer with no transformers):
	// the text deltas the stream builds are then reused once delivered,
	// so a long message does not allocate an event per delta. free is the
	// stock the consumer gave back (under qmu); next is the one an emitter
	// takes for its next delta, refilled from free as each event is
	// queued (under mu); pooled is the reusable event being sent (under
	// mu).
	reuse  bool
	free   []*agui.TextMessageContent
	next   *agui.TextMessageContent
	pooled *agui.TextMessageContent

	seq uint64
	// open is made when the first thing is opened: a run that waits
	// before emitting holds no map.
	open map[uint64]*entry
	// size keeps events within the frame limit; refused is the first
	// error of an event it refused, which fails a run the agent would
	// otherwise end in success.
	size    agui.EventSizer
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

func newStream(ctx context.Context, bound int) *stream {
	return &stream{
		ctx:      ctx,
		done:     ctx.Done(),
		verifier: agui.NewVerifier(),
		bound:    bound,
		wake:     make(chan struct{}, 1),
	}
}

// cancelled returns the run's CANCELLED error, once its context is done.
func (s *stream) cancelled() *agui.Error { return cancelledError(s.ctx) }

// item is one queued event. reuse is set when the event is one of the
// stream's reusable text deltas (see stream.reuse): the consumer gives it
// back once delivered.
type item struct {
	ev    agui.Event
	reuse *agui.TextMessageContent
}

// maxFree bounds the reusable events a run keeps in stock: enough for
// what a full queue and the consumer's batch hold at once, so a fast agent
// allocates none after its first bursts. The stock is dropped when the
// stream goes quiet (see driver.trim).
const maxFree = 128

// take moves everything queued to the consumer: it returns the events in
// the order they were verified, and whether the queue is closed (the
// terminal event is decided and nothing follows the events returned).
// spare, emptied of its events, becomes the queue's next backing array, so
// a run's queue settles into two slices that swap. freed are reusable
// events the consumer delivered and cleared, given back to the emitters.
func (s *stream) take(spare []item, freed []*agui.TextMessageContent) (evs []item, closed bool) {
	s.qmu.Lock()
	evs, s.queued = s.queued, spare[:0]
	if room := maxFree - len(s.free); room > 0 && len(freed) > 0 {
		s.free = append(s.free, freed[:min(room, len(freed))]...)
	}
	closed = s.closed
	var room chan struct{}
	if s.full {
		room = s.room
	}
	s.full = false
	s.qmu.Unlock()
	if room != nil {
		select {
		case room <- struct{}{}:
		default:
		}
	}
	return evs, closed
}

// send verifies ev and queues it for the consumer.
func (s *stream) send(ev agui.Event) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sendLocked(ev)
}

// sendText emits TEXT_MESSAGE_CONTENT for message id, attributed by e,
// built by the stream: from its stock of reusable events when the
// consumer keeps none, else new.
func (s *stream) sendText(e *Emitter, id, delta string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	ev := s.textEvent()
	ev.MessageID, ev.Delta = id, delta
	e.tag(ev)
	if s.reuse {
		s.pooled = ev
		defer func() { s.pooled = nil }()
	}
	return s.sendLocked(ev)
}

// textEvent returns an empty TEXT_MESSAGE_CONTENT: a reused one when the
// stream has one at hand. Called with mu held.
func (s *stream) textEvent() *agui.TextMessageContent {
	if ev := s.next; ev != nil && s.reuse && !s.ended {
		s.next = nil
		return ev
	}
	return new(agui.TextMessageContent)
}

// sendLocked verifies ev and queues it, blocking while the queue is full
// until the consumer reads or the run is cancelled. A verification failure
// returns at once and queues nothing. A content delta over the frame
// limit goes out as several deltas; any other event over it is refused
// with a SERIALIZATION error (see [agui.EventSizer]).
func (s *stream) sendLocked(ev agui.Event) error {
	pieces, err := s.size.Fit(ev)
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
	return s.enqueueLocked(ev)
}

// enqueueLocked queues a verified event, waiting while the queue holds
// bound events until the consumer takes them or the run is cancelled. With
// a bound of 0 it waits until the consumer has taken the event itself.
// The caller holds mu, so emitters queue one at a time, in the order they
// were verified.
func (s *stream) enqueueLocked(ev agui.Event) error {
	s.qmu.Lock()
	for s.bound > 0 && len(s.queued) >= s.bound {
		if err := s.waitRoomLocked(); err != nil {
			return err
		}
	}
	it := item{ev: ev}
	if s.pooled != nil && ev == agui.Event(s.pooled) {
		it.reuse = s.pooled // not a piece of a split delta: the event itself
	}
	s.queued = append(s.queued, it)
	first := len(s.queued) == 1 && s.held == 0
	if n := len(s.free); n > 0 && s.next == nil {
		// The next delta's event, taken while qmu is held anyway.
		s.next = s.free[n-1]
		s.free[n-1] = nil
		s.free = s.free[:n-1]
	}
	s.qmu.Unlock()
	if first {
		s.wakeConsumer()
	}
	if s.bound > 0 {
		return nil
	}
	s.qmu.Lock()
	for len(s.queued) > 0 {
		if err := s.waitRoomLocked(); err != nil {
			// Still queued, so not taken: withdraw it. Under mu the
			// queue holds only this event.
			s.qmu.Lock()
			if len(s.queued) > 0 {
				s.queued = s.queued[:0]
				s.qmu.Unlock()
				return err
			}
			s.qmu.Unlock()
			return nil
		}
	}
	s.qmu.Unlock()
	return nil
}

// wakeConsumer signals the consumer that the queue has events.
func (s *stream) wakeConsumer() {
	select {
	case s.wake <- struct{}{}:
	default: // the consumer has a wake-up pending already
	}
}

// hold starts a Coalesce hold and returns its release, which wakes the
// consumer when it ends the last hold and events wait.
func (s *stream) hold() (release func()) {
	s.qmu.Lock()
	s.held++
	s.qmu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			s.qmu.Lock()
			s.held--
			wake := s.held == 0 && len(s.queued) > 0
			s.qmu.Unlock()
			if wake {
				s.wakeConsumer()
			}
		})
	}
}

// waitRoomLocked waits for the consumer to take from the queue. It is
// called with qmu held and returns with it held, except on cancellation,
// when it returns the run's CANCELLED error with qmu released.
func (s *stream) waitRoomLocked() error {
	s.full = true
	if s.room == nil {
		s.room = make(chan struct{}, 1)
	}
	room := s.room
	held := s.held > 0
	s.qmu.Unlock()
	if held {
		s.wakeConsumer() // a held queue is full: it goes out now
	}
	select {
	case <-room:
	case <-s.done:
		return s.cancelled()
	}
	s.qmu.Lock()
	return nil
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
	if s.open == nil {
		s.open = make(map[uint64]*entry)
	}
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
// of queueing behind the terminal event.
func (s *stream) finish(term agui.Event, force bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !force {
		if s.refused != nil {
			return s.refused
		}
		if _, err := s.size.Fit(term); err != nil {
			return err
		}
	}
	if err := s.verifier.Observe(term); err != nil && !force {
		return err
	}
	s.terminal = term
	s.ended = true
	s.qmu.Lock()
	s.closed = true
	s.qmu.Unlock()
	close(s.wake)
	return nil
}

// cancelledError returns the CANCELLED error for a cancelled context,
// keeping the context's cause.
func cancelledError(ctx context.Context) *agui.Error {
	return &agui.Error{Code: agui.CodeCancelled, Message: "run cancelled", Err: context.Cause(ctx)}
}
