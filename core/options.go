package core

import (
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/agui-go/agui"
)

// RunOption configures a run: what [Run] and [NewRunner] accept, and what
// [Handler.Serve] adds to a handler's runs. Every run option this package
// offers is an [Option], so a [Handler] takes it too and passes it on to
// each run it starts.
// Only this package implements it: the method is unexported. Options are
// plain values, safe to share between runs and goroutines.
type RunOption interface{ applyRun(*runConfig) }

// HandlerOption configures a [Handler] or an [InputReader]: what
// [NewHandler] and [NewInputReader] accept, and ginagui's Register,
// Handler and Input. Options that only a handler reads ([WithHeartbeat],
// [WithGate], …) are HandlerOptions and nothing else, so passing one to
// [Run] is a compile error, not a setting silently ignored. Only this
// package implements it. Options are plain values, safe to share between
// handlers and goroutines.
type HandlerOption interface{ applyHandler(*handlerConfig) }

// Option configures runs and handlers alike ([WithQueueSize],
// [WithTransformers], [WithLogger], [WithRunTimeout]): it is both a
// [RunOption] and a [HandlerOption], as connect-go's Option is both a
// client and a handler option. A [Handler] given one passes it on to
// every run it starts.
type Option interface {
	RunOption
	HandlerOption
}

// runOption is an Option: a run applies it, a handler keeps it for its
// runs.
type runOption func(*runConfig)

func (f runOption) applyRun(c *runConfig) { f(c) }

func (f runOption) applyHandler(c *handlerConfig) { c.run = append(c.run, f) }

// handlerOption is a HandlerOption read by the handler alone.
type handlerOption func(*handlerConfig)

func (f handlerOption) applyHandler(c *handlerConfig) { f(c) }

// defaultQueueSize is the default bound of the queue between the agent and
// the consumer: enough to absorb a burst of deltas between two writes to a
// connection, small enough that a stalled client costs little memory.
const defaultQueueSize = 64

// runConfig is what a list of RunOptions sets.
type runConfig struct {
	queue        int
	transformers []TransformerFactory
	logger       *slog.Logger
	timeout      time.Duration // WithRunTimeout (deadline.go)
	// scratch is the Handler's pool of run scratch (see runScratch); nil
	// outside a Handler.
	scratch *sync.Pool
}

func newRunConfig(opts []RunOption) (runConfig, error) {
	o := runConfig{queue: defaultQueueSize}
	for _, opt := range opts {
		if opt != nil {
			opt.applyRun(&o)
		}
	}
	if o.queue < 0 {
		return o, agui.NewError(agui.CodeProtocol, fmt.Sprintf("core: queue size %d is negative", o.queue))
	}
	if err := checkRunTimeout(o.timeout); err != nil {
		return o, err
	}
	if o.logger == nil {
		o.logger = slog.Default()
	}
	return o, nil
}

// WithQueueSize bounds the number of events queued between the agent and
// the consumer (default 64; 0 hands each event over directly). The
// consumer takes everything queued at once, so besides the n queued it
// may hold up to n it took and has not delivered yet. The queue grows
// only as events wait in it, so an idle run holds little memory. When the
// queue is full the agent's next emit blocks until the consumer takes or
// the run is cancelled, so a slow client slows the agent down instead of
// growing the heap. The run's terminal event never waits for room in the
// queue. A negative n makes [NewRunner] and [NewHandler] fail.
func WithQueueSize(n int) Option { return runOption(func(c *runConfig) { c.queue = n }) }

// WithTransformers passes the run's stream through a Chain built for this
// run from ts, in order (see [TransformerFactory]). The chain's output is
// verified again, so a transformer cannot send the client a broken stream.
// A nil factory, or a factory returning nil, is skipped. Repeated options
// append. Default: no transformers.
func WithTransformers(ts ...TransformerFactory) Option {
	return runOption(func(c *runConfig) { c.transformers = append(c.transformers, ts...) })
}

// WithLogger sets the logger that receives recovered agent and transformer
// panics with their stack (default [slog.Default](); a [Handler]'s runs
// default to the handler's logger, see [WithHandlerLogger]).
func WithLogger(l *slog.Logger) Option { return runOption(func(c *runConfig) { c.logger = l }) }
