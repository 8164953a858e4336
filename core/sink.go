package core

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"

	"github.com/agui-go/agui"
)

// sink is the client-facing end of a run: it passes events through the
// run's transformers, verifies their output with its own verifier and
// yields it. Without transformers it yields what the run's queue holds,
// which the stream's verifier has already accepted, and verifies nothing
// again. It is used by the consumer's goroutine only.
//
// Every call into a transformer is guarded: a panic becomes a
// TRANSFORM_ERROR, since on the consumer's goroutine it would otherwise end
// the process, and the sink remembers which transformer failed, so the
// run's final RUN_ERROR can still pass through the transformers after it.
type sink struct {
	yield func(agui.Event) bool
	chain []Transformer
	// verifier checks the chain's output; nil when there is no chain.
	verifier *agui.Verifier
	logger   *slog.Logger
	in       *agui.RunAgentInput
	// feeds[i] passes an event to chain[i] and what follows it;
	// feeds[len(chain)] is emit; nil without a chain (see head). They are
	// made once per run: closures made per event would allocate per event.
	feeds []func(agui.Event) error
	// failed is the index of the transformer whose error or panic stopped
	// the stream, len(chain) when what left the chain did (the verifier
	// refused it or the consumer left), and -1 until then.
	failed int
	// finished counts the transformers whose Finish has been called.
	finished int
	// yielding is set while the consumer's loop body runs: a panic
	// unwinding through a transformer then is the consumer's, and goes on.
	yielding bool
	// ended: a terminal event reached the consumer. gone: the consumer
	// stopped reading. failure: the chain failed or its output broke a rule.
	ended   bool
	gone    bool
	failure error
}

func newSink(yield func(agui.Event) bool, logger *slog.Logger, in *agui.RunAgentInput) *sink {
	return &sink{yield: yield, logger: logger, in: in, failed: -1}
}

// build makes the run's chain from factories, in order, skipping nil
// factories and nil transformers. When a factory panics it returns the
// error and leaves the chain empty.
func (k *sink) build(ctx context.Context, factories []TransformerFactory) error {
	for _, nt := range factories {
		if nt == nil {
			continue
		}
		t, err := k.newTransformer(ctx, nt)
		if err != nil {
			k.chain = nil
			return err
		}
		if t != nil {
			k.chain = append(k.chain, t)
		}
	}
	if len(k.chain) == 0 {
		return nil
	}
	k.verifier = agui.NewVerifier()
	k.feeds = make([]func(agui.Event) error, len(k.chain)+1)
	k.feeds[len(k.chain)] = k.emit
	for i := range k.chain {
		k.feeds[i] = func(ev agui.Event) error { return k.transform(ctx, i, ev) }
	}
	return nil
}

func (k *sink) newTransformer(ctx context.Context, nt TransformerFactory) (t Transformer, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = k.panicked(ctx, p, "TransformerFactory")
		}
	}()
	t = nt(k.in)
	startRun(ctx, t)
	return t, nil
}

// transform calls chain[i].Transform.
func (k *sink) transform(ctx context.Context, i int, ev agui.Event) (err error) {
	defer k.guard(ctx, i, "Transform", &err)
	return k.chain[i].Transform(ev, k.feeds[i+1])
}

// finishAt calls chain[i].Finish.
func (k *sink) finishAt(ctx context.Context, i int) (err error) {
	defer k.guard(ctx, i, "Finish", &err)
	k.finished = i + 1
	return k.chain[i].Finish(k.feeds[i+1])
}

// guard runs deferred around every call into chain[i]: it turns the
// transformer's panic into an error and records i as the transformer that
// failed, unless the error came from further down the chain.
func (k *sink) guard(ctx context.Context, i int, method string, err *error) {
	if k.yielding {
		return // the consumer's own panic: not the transformer's to hide
	}
	if p := recover(); p != nil {
		*err = k.panicked(ctx, p, method)
	}
	if *err != nil && k.failed < 0 {
		k.failed = i
	}
}

// panicked logs a transformer's panic with its stack, as the runner does
// for the agent's, and returns the error ending the run.
func (k *sink) panicked(ctx context.Context, p any, method string) error {
	k.logger.ErrorContext(ctx, "core: transformer panicked",
		slog.String("thread_id", LogID(k.in.ThreadID)),
		slog.String("run_id", LogID(k.in.RunID)),
		slog.String("method", method),
		slog.Any("panic", p),
		slog.String("stack", string(debug.Stack())))
	return &agui.Error{Code: agui.CodeTransform, Message: "transformer panicked in " + method, Err: fmt.Errorf("panic: %v", p)}
}

// emit verifies ev and yields it; it is the emit function of the chain's
// last transformer.
func (k *sink) emit(ev agui.Event) error {
	err := k.pass(ev)
	if err != nil && k.failed < 0 {
		k.failed = len(k.chain)
	}
	return err
}

func (k *sink) pass(ev agui.Event) error {
	if k.gone || k.ended {
		return agui.NewError(agui.CodeProtocol, "core: "+string(ev.Type())+" after the stream ended")
	}
	if k.verifier != nil {
		if err := k.verifier.Observe(ev); err != nil {
			k.failure = err
			return err
		}
	}
	if isTerminal(ev) {
		k.ended = true
	}
	if !k.yieldEvent(ev) {
		k.gone = true
		return errConsumerStopped
	}
	return nil
}

func (k *sink) yieldEvent(ev agui.Event) bool {
	k.yielding = true
	more := k.yield(ev)
	k.yielding = false
	return more
}

// deliver passes ev through the chain and reports whether the stream goes
// on.
func (k *sink) deliver(ev agui.Event) bool { return k.check(k.head(ev)) }

// head passes ev to the chain's first transformer, or to emit when there
// is no chain: a run without transformers (most runs) builds no feeds.
func (k *sink) head(ev agui.Event) error {
	if k.feeds == nil {
		return k.emit(ev)
	}
	return k.feeds[0](ev)
}

// check records a chain error and reports whether the stream goes on.
func (k *sink) check(err error) bool {
	switch {
	case k.gone || k.ended || k.failure != nil:
		return false
	case err != nil:
		k.failure = transformError(err)
		return false
	}
	return true
}

// finish finishes the chain and delivers the terminal event; the stream
// always ends with a terminal event unless the consumer left.
func (k *sink) finish(ctx context.Context, term agui.Event) {
	if k.check(k.finishFrom(ctx, 0)) {
		k.check(k.head(term))
	}
	if k.failure == nil && !k.ended && !k.gone {
		k.failure = agui.NewError(agui.CodeTransform, "core: the transformer chain dropped the terminal event")
	}
	k.stop(ctx)
}

// finishFrom finishes chain[i:] in order, each one's output passing
// through the rest of the chain.
func (k *sink) finishFrom(ctx context.Context, i int) error {
	for ; i < len(k.chain); i++ {
		if err := k.finishAt(ctx, i); err != nil {
			return err
		}
	}
	return nil
}

// stop ends a stream that stopped early with a RUN_ERROR. When a
// transformer failed, the transformers after it are sound and are
// finished and passed the RUN_ERROR, so that one such as Metrics still
// sees the run end; the failed one and those before it are bypassed. The
// RUN_ERROR bypasses the whole chain when what left the chain failed, when
// the chain dropped the terminal event, or when passing it on fails.
//
// When the consumer left before the terminal event, no transformer failed:
// they are all finished and passed a RUN_ERROR (DISCONNECTED) whose output
// goes nowhere, for the same reason.
func (k *sink) stop(ctx context.Context) {
	switch {
	case k.ended:
	case k.gone:
		k.passEnd(ctx, 0, errConsumerStopped)
	case k.failure != nil:
		failure := k.failure
		if k.failed >= 0 {
			k.passEnd(ctx, k.failed+1, failure)
		}
		k.fail(failure)
	}
}

// passEnd finishes chain[i:], skipping those already finished, and passes
// them the RUN_ERROR for err.
func (k *sink) passEnd(ctx context.Context, i int, err error) {
	if i >= len(k.chain) {
		return
	}
	if k.finishFrom(ctx, max(i, k.finished)) == nil {
		_ = k.feeds[i](runError(err))
	}
}

// fail yields the RUN_ERROR for err, bypassing the chain, unless the
// stream already ended.
func (k *sink) fail(err error) {
	if k.ended || k.gone {
		return
	}
	re := runError(err)
	if k.verifier != nil {
		_ = k.verifier.Observe(re)
	}
	k.ended = true
	k.yieldEvent(re)
}

// transformError returns the error ending a run whose transformer failed:
// TRANSFORM_ERROR unless err carries its own code.
// Like asError it never panics, whatever err's methods do.
func transformError(err error) (out *agui.Error) {
	defer func() {
		if recover() != nil {
			out = &agui.Error{Code: agui.CodeTransform, Message: "transformer error: " + agui.ErrorText(err), Err: err}
		}
	}()
	var e *agui.Error
	if errors.As(err, &e) && e != nil {
		return asError(err)
	}
	return &agui.Error{Code: agui.CodeTransform, Message: "transformer error: " + agui.ErrorText(err), Err: err}
}
