package core

import (
	"context"
	"sync"

	"github.com/agui-go/agui"
)

// Consumer is the consumer side of one started run (see [Runner.Start]):
// the run's queue, the deliver function that takes what comes out of it,
// and the agent's goroutine. The transport that consumes the run takes
// from the queue itself, on its own goroutine, everything queued at once:
// one queue, one hand-off per burst of events, and no goroutine besides
// the agent's. [Runner.Events], the HTTP handler and the resumable route
// all drive their runs through one.
//
// A Consumer is not safe for concurrent use: Ready, Take, Trim, Close and
// Abandon are called by one goroutine, the one that called Start, and
// deliver is only ever called on it, from within Start, Take and Close.
// Between them the consumer may wait on other things (a timer, a socket,
// a store), which is what lets a transport select over Ready and its own
// channels without a goroutine in between.
//
// A consumer's loop, with nothing else to wait for:
//
//	for ready := c.Ready(); ready != nil; ready = c.Ready() {
//		<-ready
//		c.Take()
//	}
//	c.Close()
type Consumer struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
	out    *sink
	s      *stream
	// batch is the consumer's half of the run's queue: the events taken
	// last, delivered one by one, then handed back to the stream empty.
	batch []item
	// freed are the reusable events of the last batch, delivered and
	// cleared, given back to the stream with the next take.
	freed []*agui.TextMessageContent
	// pool is the handler's pool of run scratch, and sc the scratch this
	// run took from it (see runScratch); nil when the run does not reuse.
	pool *sync.Pool
	sc   *runScratch
	// agent is the agent's goroutine (none when the run ended before the
	// agent started).
	agent sync.WaitGroup
	// ended is set once the stream is over for the consumer: the terminal
	// event was delivered, the consumer left, or the chain failed.
	ended bool
	// cause is what the run is cancelled with when the consumer stops
	// early.
	cause error
	// taking is set while an event is handed to the sink: close finding
	// it set means the consumer panicked mid-delivery.
	taking bool
}

var _ runQueue = (*Consumer)(nil)

// errConsumerStopped is the cause a run is cancelled with when its
// consumer stops before the terminal event: one value for every run, as it
// carries nothing of the run's.
var errConsumerStopped error = agui.NewError(agui.CodeDisconnected, "core: the consumer stopped reading the event stream")

// StartOption configures [Runner.Start].
type StartOption func(*startConfig)

type startConfig struct{ reuse, latest, held bool }

// DeliverKeepsNothing tells [Runner.Start] that deliver keeps no event,
// nor anything an event points to, after it returns (it encodes or copies
// what it needs): the run may then reuse its TEXT_MESSAGE_CONTENT events
// once delivered, so a long message does not allocate an event per
// delta. It has no effect on a run with transformers, which may keep what
// they are given. Default: off; every event delivered is deliver's to
// keep.
func DeliverKeepsNothing() StartOption { return func(c *startConfig) { c.reuse = true } }

// DeliverLatest tells [Runner.Start] to deliver the run's events as
// [agui.LatestProtocolVersion] has them, RUN_STARTED stating that version,
// whatever version the run's client declared: for a transport whose
// connections may each have a client of another dialect (package resume
// keeps one run's events for all of them), each connection shaping them
// for its own with [Conn.Downgrade]. Default: off; the events are shaped
// for the run's client, as [agui.ServedVersion] and [agui.Downgrade10]
// say, as [Handler.Serve] sends them.
func DeliverLatest() StartOption { return func(c *startConfig) { c.latest = true } }

// Start starts the run under ctx and returns its [Consumer]: deliver is
// given the run's events, in order, each once, RUN_STARTED first (from
// within Start) and the terminal event (RUN_FINISHED or RUN_ERROR) last,
// on the goroutine that calls Start, Take and Close. deliver returning
// false stops the run: it is cancelled with a DISCONNECTED cause and
// nothing more is delivered. The agent's goroutine is running when Start
// returns, unless the run already ended (Ready is then nil).
//
// The caller must end the Consumer with Close (or Abandon), on every path,
// or the agent's goroutine outlives the run. Start fails with a PROTOCOL
// [*agui.Error] when the run was started before (by Start, Events or
// Run).
func (r *Runner[S]) Start(ctx context.Context, deliver func(agui.Event) bool, opts ...StartOption) (*Consumer, error) {
	var c startConfig
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return r.drive(ctx, deliver, c.reuse && len(r.opts.transformers) == 0, c.latest, c.held)
}

// begin is Start for the transport, whose yield keeps no event after it
// returns, and which waits for the agent's first burst before it follows
// the queue event by event (see streamWriter.first).
func (r *Runner[S]) begin(ctx context.Context, yield func(agui.Event) bool) (runQueue, error) {
	d, err := r.Start(ctx, yield, DeliverKeepsNothing(), func(c *startConfig) { c.held = true })
	if err != nil {
		return nil, err
	}
	return d, nil
}

// drive starts the run under ctx and delivers RUN_STARTED to yield; the
// agent's goroutine is running when it returns, unless the run already
// ended. It fails only when the run was started before. reuse says that
// neither yield nor anything between the queue and yield keeps an event
// after delivering it (see stream.reuse); latest, that the events are
// delivered as 1.1 has them whatever the client (see DeliverLatest);
// held, that the queue does not wake the consumer for the agent's first
// events (see stream.held), until [Consumer.follow].
func (r *Runner[S]) drive(ctx context.Context, yield func(agui.Event) bool, reuse, latest, held bool) (*Consumer, error) {
	ctx, cancel, err := r.start(ctx)
	if err != nil {
		return nil, err
	}
	served := agui.LatestProtocolVersion
	if !latest {
		served = agui.ServedVersion(r.in.ProtocolVersion)
	}
	if served != agui.LatestProtocolVersion {
		// A client served 1.0 gets 1.0 events. The 1.1 field leaves last,
		// so that transformers see what the agent emitted.
		next := yield
		yield = func(ev agui.Event) bool { return next(agui.Downgrade10(ev)) }
	}
	out := newSink(yield, r.opts.logger, r.in)
	chainErr := out.build(ctx, r.opts.transformers)
	s := newStream(ctx, r.opts.queue)
	s.reuse = reuse
	if held {
		s.held, s.firstHeld = 1, true
	}
	r.rc.Emitter = &Emitter{s: s}
	d := &Consumer{ctx: ctx, cancel: cancel, out: out, s: s, cause: errConsumerStopped}

	started := &agui.RunStarted{
		ThreadID:        r.in.ThreadID,
		RunID:           r.in.RunID,
		ParentRunID:     r.in.ParentRunID,
		ProtocolVersion: served,
	}
	if err := s.observe(started); err != nil {
		out.fail(err)
		d.ended = true
		return d, nil
	}
	if chainErr != nil {
		// A factory panicked: the stream still starts and ends, bypassing
		// a chain that was never built.
		if out.deliver(started) {
			out.fail(chainErr)
		}
		d.ended = true
		return d, nil
	}

	// The agent starts before RUN_STARTED is delivered, so its first model
	// call overlaps with the transport writing headers; RUN_STARTED still
	// comes first, because the agent's events wait in the queue behind it.
	if reuse && r.opts.scratch != nil {
		d.adoptScratch(r.opts.scratch)
	}
	d.agent.Add(1)
	go func() {
		defer d.agent.Done()
		r.runAgent(ctx, s)
	}()
	if !out.deliver(started) {
		d.stop()
	}
	return d, nil
}

// Ready returns a channel that receives a value when events are queued
// (or the run has ended) and Take has something to hand over, or nil once
// the stream is over: the terminal event was delivered, deliver stopped
// the run, or the Consumer was closed. A nil channel blocks for ever in a
// select, so a loop checks for it before waiting.
func (d *Consumer) Ready() <-chan struct{} {
	if d.ended {
		return nil
	}
	return d.s.wake
}

// Take delivers everything queued, and the run's terminal event once the
// agent has returned, and returns how many events it delivered. It does
// not wait: with nothing queued it returns 0. What is queued while
// deliver runs is left for the next Take, which Ready signals.
func (d *Consumer) Take() int {
	if d.ended {
		return 0
	}
	evs, closed := d.s.take(d.batch, d.freed)
	clear(d.freed)
	d.freed = d.freed[:0]
	n := len(evs)
	for _, it := range evs {
		if d.ended {
			break // the consumer or the chain stopped the stream
		}
		d.taking = true
		more := d.out.deliver(it.ev)
		d.taking = false
		if it.reuse != nil {
			*it.reuse = agui.TextMessageContent{}
			d.freed = append(d.freed, it.reuse)
		}
		if !more {
			d.stop()
		}
	}
	clear(evs) // the events are delivered: hold none of them
	d.batch = evs[:0]
	if closed && !d.ended {
		d.out.finish(d.ctx, d.s.terminal)
		d.ended = true
		n++
	}
	return n
}

// follow ends the wait for the agent's first burst: from now on, events
// queued to an empty queue wake the consumer (see stream.held).
func (d *Consumer) follow() {
	s := d.s
	s.qmu.Lock()
	if s.firstHeld {
		// No wake-up: the caller is the consumer, about to take what is
		// queued.
		s.firstHeld = false
		s.held--
	}
	s.qmu.Unlock()
}

// Trim drops what the run keeps for bursts (the queue's slices, the stock
// of reusable deltas): a consumer calls it when the stream has gone quiet
// (the HTTP handler does at each idle period), so that a run that waits
// holds none of it.
func (d *Consumer) Trim() {
	clear(d.freed)
	d.freed, d.batch = nil, nil
	s := d.s
	s.qmu.Lock()
	clear(s.free)
	s.free = nil
	if len(s.queued) == 0 {
		s.queued = nil
	}
	s.qmu.Unlock()
}

// stop ends a stream the consumer or the chain stopped early: it cancels
// the run, joins the agent and ends the chain.
func (d *Consumer) stop() {
	out := d.out
	if out.failure != nil {
		d.cause = out.failure
	} else if out.ended {
		d.cause = agui.NewError(agui.CodeTransform, "core: a transformer ended the stream")
	}
	d.cancel(d.cause)
	d.join()
	out.stop(d.ctx)
	d.ended = true
}

// Close ends the run however the consumer stopped: a consumer that
// leaves before the terminal event is taken as gone (the run is cancelled
// with a DISCONNECTED cause, and deliver is given nothing more). After a
// panic in deliver the chain is left as it is. The agent is cancelled and
// joined, so no goroutine outlives Close: an agent that ignores its
// context makes Close wait for it (see Abandon). It is idempotent.
func (d *Consumer) Close() {
	if !d.ended && !d.taking {
		d.out.gone = true
		d.stop()
	}
	d.cancel(d.cause)
	d.join()
	d.releaseScratch()
}

func (d *Consumer) join() {
	d.agent.Wait()
}

// Abandon cancels the run with [ErrShuttingDown] without waiting for its
// agent, in place of Close: at a shutdown deadline the agent has ignored
// its cancellation, and the consumer has ended the stream for it. The
// agent's goroutine returns on its own; every emit it still makes fails,
// and nothing is delivered again.
func (d *Consumer) Abandon() {
	d.cancel(ErrShuttingDown)
	d.ended = true
}
