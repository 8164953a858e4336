package core

import (
	"context"
	"sync"

	"github.com/agui-go/agui"
)

// driver is the consumer side of one started run: the run's queue, the
// sink that takes what comes out of it, and the agent's goroutine. Whoever
// consumes the run (the iterator of Runner.Events, or the HTTP writer)
// takes from the queue itself, on its own goroutine, everything queued at
// once: one queue, one hand-off per burst of events, and no goroutine
// besides the agent's.
//
// A driver is used by the consumer's goroutine only.
type driver struct {
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

var _ runQueue = (*driver)(nil)

// begin is drive for the transport, whose yield keeps no event after it
// returns: with no transformers (which may keep what they are given),
// the stream reuses its text deltas once delivered.
func (r *Runner[S]) begin(ctx context.Context, yield func(agui.Event) bool) (runQueue, error) {
	d, err := r.drive(ctx, yield, len(r.opts.transformers) == 0)
	if err != nil {
		return nil, err
	}
	return d, nil
}

// drive starts the run under ctx and delivers RUN_STARTED to yield; the
// agent's goroutine is running when it returns, unless the run already
// ended. It fails only when the run was started before. reuse says that
// neither yield nor anything between the queue and yield keeps an event
// after delivering it (see stream.reuse).
func (r *Runner[S]) drive(ctx context.Context, yield func(agui.Event) bool, reuse bool) (*driver, error) {
	ctx, cancel, err := r.start(ctx)
	if err != nil {
		return nil, err
	}
	out := newSink(yield, r.opts.logger, r.in)
	chainErr := out.build(ctx, r.opts.transformers)
	s := newStream(ctx, r.opts.queue)
	s.reuse = reuse
	r.rc.Emitter = &Emitter{s: s}
	d := &driver{ctx: ctx, cancel: cancel, out: out, s: s,
		cause: agui.NewError(agui.CodeDisconnected, "core: the consumer stopped reading the event stream")}

	started := &agui.RunStarted{
		ThreadID:        r.in.ThreadID,
		RunID:           r.in.RunID,
		ParentRunID:     r.in.ParentRunID,
		ProtocolVersion: agui.ProtocolVersion,
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

// ready returns the channel that signals events in the run's queue (or
// its end), or nil once the stream is over.
func (d *driver) ready() <-chan struct{} {
	if d.ended {
		return nil
	}
	return d.s.wake
}

// take hands everything queued to the sink, and the run's terminal event
// once the queue is closed, and returns how many events it took. It does
// not wait: with nothing queued it returns 0.
func (d *driver) take() int {
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

// trim drops what the run keeps for bursts (the queue's slices, the stock
// of reusable deltas) when the stream has gone quiet: an open stream that
// waits holds none of it.
func (d *driver) trim() {
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
func (d *driver) stop() {
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

// close ends the run however the consumer stopped: a consumer that leaves
// before the terminal event is taken as gone. After a panic in the
// consumer's own code the chain is left as it is. The agent is cancelled
// and joined, so no goroutine outlives close. It is idempotent.
func (d *driver) close() {
	if !d.ended && !d.taking {
		d.out.gone = true
		d.stop()
	}
	d.cancel(d.cause)
	d.join()
	d.releaseScratch()
}

func (d *driver) join() {
	d.agent.Wait()
}

// abandon cancels the run without waiting for its agent: at a shutdown
// deadline the agent has ignored its cancellation, and the stream has been
// ended for it. The agent's goroutine returns on its own; every emit it
// still makes fails, and nothing reads the queue again.
func (d *driver) abandon() {
	d.cancel(ErrShuttingDown)
	d.ended = true
}
