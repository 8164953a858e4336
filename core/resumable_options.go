package core

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"time"
)

// resumeOption is a HandlerOption that only NewResumableHandler reads; a
// Handler ignores it, so one option list can configure both.
type resumeOption func(*resumeConfig)

func (f resumeOption) applyHandler(c *handlerConfig) { c.resume = append(c.resume, f) }

type resumeConfig struct {
	grace       time.Duration
	maxDuration time.Duration
	leaseTTL    time.Duration
	presence    time.Duration
	retry       time.Duration
	replica     string

	maxDetached, maxDetachedPer int // see WithMaxDetachedRuns
}

// Defaults of the resumable handler's options.
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
// by [WithRunTimeout], or by [DefaultMaxRunDuration] when none is set. The default is no detach: the run is cancelled
// as soon as its last connection goes away, as on a plain [Handler], and its
// log, up to that RUN_ERROR, can still be read.
func WithDetach(grace time.Duration) HandlerOption {
	return resumeOption(func(c *resumeConfig) { c.grace = grace })
}

// WithLeaseTTL sets how long a run's owner holds its lease without
// renewing it (default 10 s, [DefaultLeaseTTL]). The owner renews every
// third of it, which is also how soon it learns of a stop made on another
// replica; a replica that dies leaves its runs to be ended by a reader on
// another one after at most this long.
func WithLeaseTTL(d time.Duration) HandlerOption {
	return resumeOption(func(c *resumeConfig) { c.leaseTTL = d })
}

// WithPresence sets how recent a read of the log by another replica must
// be for the owner to count it as a viewer (default 3 s,
// [DefaultPresence]). It must exceed the log's longest read wait.
func WithPresence(d time.Duration) HandlerOption {
	return resumeOption(func(c *resumeConfig) { c.presence = d })
}

// WithRetry sets the reconnection delay sent in the stream's first
// "retry:" frame (default 1 s, [DefaultRetry]; 0 sends none).
func WithRetry(d time.Duration) HandlerOption {
	return resumeOption(func(c *resumeConfig) { c.retry = d })
}

// WithReplicaID names this process as a runs' owner in the log (default:
// random per handler).
func WithReplicaID(id string) HandlerOption {
	return resumeOption(func(c *resumeConfig) { c.replica = id })
}

func newResumeConfig(opts []HandlerOption) (resumeConfig, error) {
	c := resumeConfig{
		maxDuration: DefaultMaxRunDuration,
		leaseTTL:    DefaultLeaseTTL,
		presence:    DefaultPresence,
		retry:       DefaultRetry,

		maxDetached:    DefaultMaxDetachedRuns,
		maxDetachedPer: DefaultMaxDetachedRunsPerPrincipal,
	}
	var hc handlerConfig
	for _, o := range opts {
		if o != nil {
			o.applyHandler(&hc)
		}
	}
	for _, f := range hc.resume {
		f(&c)
	}
	switch {
	case c.leaseTTL < 3*time.Millisecond:
		return c, errors.New("core: WithLeaseTTL needs at least 3ms")
	case c.presence <= 0:
		return c, errors.New("core: WithPresence needs a positive duration")
	case c.retry < 0:
		return c, errors.New("core: WithRetry needs a non-negative delay")
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
