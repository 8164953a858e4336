package core

import (
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/agui-go/agui"
)

// Option configures a run, a [Handler], or both: the one option type of
// [Run], [NewRunner], [NewHandler], [Handler.Serve] and ginagui.Register, so that
// run options ([WithQueueSize], [WithTransformers], [WithLogger]) and handler
// options ([WithHeartbeat], [WithGate], …) go in one list. A run ignores the
// handler options; a Handler passes its whole list to every run it starts.
// Options are plain values, safe to share between runs and goroutines.
type Option interface{ apply(*settings) }

// settings is what a list of options sets.
type settings struct {
	run     options
	handler handlerConfig
}

// defaultQueueSize is the default bound of the queue between the agent and
// the consumer: enough to absorb a burst of deltas between two writes to a
// connection, small enough that a stalled client costs little memory.
const defaultQueueSize = 64

type options struct {
	queue        int
	transformers []TransformerFactory
	logger       *slog.Logger
	timeout      time.Duration // WithRunTimeout (deadline.go)
	// scratch is the Handler's pool of run scratch (see runScratch); nil
	// outside a Handler.
	scratch *sync.Pool
}

func newOptions(opts []Option) (options, error) {
	st := settings{run: options{queue: defaultQueueSize}}
	for _, opt := range opts {
		if opt != nil {
			opt.apply(&st)
		}
	}
	o := st.run
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

type optionFunc func(*settings)

func (f optionFunc) apply(s *settings) { f(s) }

// WithQueueSize bounds the number of events queued between the agent and
// the consumer (default 64; 0 hands each event over directly). The
// consumer takes everything queued at once, so besides the n queued it
// may hold up to n it took and has not delivered yet. The queue grows
// only as events wait in it, so an idle run holds little memory. When the
// queue is full the agent's next emit blocks until the consumer takes or
// the run is cancelled, so a slow client slows the agent down instead of
// growing the heap. The run's terminal event never waits for room in the
// queue. A negative n makes [NewRunner] fail.
func WithQueueSize(n int) Option { return optionFunc(func(s *settings) { s.run.queue = n }) }

// WithTransformers passes the run's stream through a Chain built for this
// run from ts, in order (see [TransformerFactory]). The chain's output is
// verified again, so a transformer cannot send the client a broken stream.
// A nil factory, or a factory returning nil, is skipped. Repeated options
// append. Default: no transformers.
func WithTransformers(ts ...TransformerFactory) Option {
	return optionFunc(func(s *settings) { s.run.transformers = append(s.run.transformers, ts...) })
}

// WithLogger sets the logger that receives recovered agent and transformer
// panics with their stack (default [slog.Default]()).
func WithLogger(l *slog.Logger) Option { return optionFunc(func(s *settings) { s.run.logger = l }) }
