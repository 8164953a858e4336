package resume

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"time"
)

// Option configures a resumable route ([New]). Options are plain values,
// safe to share between routes and goroutines.
type Option func(*config)

type config struct {
	grace       time.Duration
	maxDuration time.Duration
	leaseTTL    time.Duration
	presence    time.Duration
	retry       time.Duration
	replica     string

	maxDetached, maxDetachedPer int // see WithMaxDetachedRuns
}

// Defaults of the resumable route's options.
const (
	DefaultMaxRunDuration = 30 * time.Minute
	DefaultLeaseTTL       = 10 * time.Second
	DefaultPresence       = 3 * time.Second
	DefaultRetry          = time.Second
)

// WithDetach lets a run outlive its connections: when the last client
// goes away the run keeps going for grace, so a client that reconnects
// finds it live, and is cancelled (RUN_ERROR code DISCONNECTED) only when
// nobody came back in time. A negative grace runs it to its end, bounded
// by the handler's [core.WithRunTimeout] and by [DefaultMaxRunDuration].
// The default is no detach: the run is
// cancelled as soon as its last connection goes away, as on a plain
// [core.Handler], and its log, up to that RUN_ERROR, can still be read.
func WithDetach(grace time.Duration) Option {
	return func(c *config) { c.grace = grace }
}

// WithLeaseTTL sets how long a run's owner holds its lease without
// renewing it (default 10 s, [DefaultLeaseTTL]). The owner renews every
// third of it, which is also how soon it learns of a stop made on another
// replica; a replica that dies leaves its runs to be ended by a reader on
// another one after at most this long.
func WithLeaseTTL(d time.Duration) Option {
	return func(c *config) { c.leaseTTL = d }
}

// WithPresence sets how recent a read of the log by another replica must
// be for the owner to count it as a viewer (default 3 s,
// [DefaultPresence]). It must exceed the log's longest read wait.
func WithPresence(d time.Duration) Option {
	return func(c *config) { c.presence = d }
}

// WithRetry sets the reconnection delay sent in the stream's first
// "retry:" frame (default 1 s, [DefaultRetry]; 0 sends none).
func WithRetry(d time.Duration) Option {
	return func(c *config) { c.retry = d }
}

// WithReplicaID names this process as its runs' owner in the log
// (default: 16 random hex digits, drawn per handler).
func WithReplicaID(id string) Option {
	return func(c *config) { c.replica = id }
}

func newConfig(opts []Option) (config, error) {
	c := config{
		maxDuration: DefaultMaxRunDuration,
		leaseTTL:    DefaultLeaseTTL,
		presence:    DefaultPresence,
		retry:       DefaultRetry,

		maxDetached:    DefaultMaxDetachedRuns,
		maxDetachedPer: DefaultMaxDetachedRunsPerPrincipal,
	}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	switch {
	case c.leaseTTL < 3*time.Millisecond:
		return c, errors.New("resume: WithLeaseTTL needs at least 3ms")
	case c.presence <= 0:
		return c, errors.New("resume: WithPresence needs a positive duration")
	case c.retry < 0:
		return c, errors.New("resume: WithRetry needs a non-negative delay")
	}
	if err := checkDetachCaps(c); err != nil {
		return c, err
	}
	if c.replica == "" {
		var b [8]byte
		_, _ = rand.Read(b[:])
		c.replica = hex.EncodeToString(b[:])
	}
	return c, nil
}
