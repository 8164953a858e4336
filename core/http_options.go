package core

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/agui-go/agui"
)

type handlerConfig struct {
	maxBodyBytes int64
	heartbeat    time.Duration
	writeTimeout time.Duration
	readTimeout  time.Duration
	limits       InputLimits
	logger       *slog.Logger
	gate         *Gate
	// run is the handler's run options (the [Option]s of its list), which
	// every run applies after the handler's logger.
	run          []RunOption
	decode       []agui.DecodeOption
	ops          opsConfig // route names, refusal hook, run cap (admission.go)
	capabilities *agui.Capabilities
	// principal is the route's principal hook (principal.go); nil is none.
	principal    PrincipalFunc
	principalSet bool
}

// runOptions returns the options every run of the handler applies: its
// logger, then its run options. The slice is new, with room for one
// more: the caller may append a request's own.
func (c *handlerConfig) runOptions() []RunOption {
	opts := make([]RunOption, 0, 1+len(c.run)+1)
	return append(append(opts, WithLogger(c.logger)), c.run...)
}

// Defaults of the handler options.
const (
	// DefaultMaxBodyBytes bounds a request's body at 8 MiB: a thread of
	// some 27,000 messages of 300 bytes, past [DefaultMaxMessages], and
	// 60-80 ms of server CPU to take at the thread-length sweep's 2.3-3
	// µs per message (BENCHMARKS.md).
	DefaultMaxBodyBytes = 8 << 20
	DefaultHeartbeat    = 15 * time.Second
	DefaultWriteTimeout = 30 * time.Second
)

// newHandlerConfig applies opts and checks every setting, the run options
// included, so that a list fails the same way wherever it is given.
func newHandlerConfig(opts []HandlerOption) (handlerConfig, error) {
	c := handlerConfig{
		maxBodyBytes: DefaultMaxBodyBytes,
		heartbeat:    DefaultHeartbeat,
		writeTimeout: DefaultWriteTimeout,
		readTimeout:  DefaultReadTimeout,
	}
	for _, o := range opts {
		if o != nil {
			o.applyHandler(&c)
		}
	}
	switch {
	case c.maxBodyBytes <= 0:
		return c, errors.New("core: WithMaxBodyBytes needs a positive limit")
	case c.heartbeat < 0:
		return c, errors.New("core: WithHeartbeat needs a non-negative interval")
	case c.writeTimeout < 0:
		return c, errors.New("core: WithWriteTimeout needs a non-negative timeout")
	case c.readTimeout < 0:
		return c, errors.New("core: WithReadTimeout needs a non-negative timeout")
	}
	if err := checkPrincipal(c); err != nil {
		return c, err
	}
	if err := c.ops.check(); err != nil {
		return c, err
	}
	if _, err := newRunConfig(c.run); err != nil {
		return c, fmt.Errorf("core: run options: %w", err)
	}
	var err error
	if c.limits, err = c.limits.withDefaults(); err != nil {
		return c, err
	}
	if c.logger == nil {
		c.logger = slog.Default()
	}
	return c, nil
}

// WithMaxBodyBytes limits the request body (default 8 MiB,
// [DefaultMaxBodyBytes]); a larger body is answered 413 before any event.
func WithMaxBodyBytes(n int64) HandlerOption {
	return handlerOption(func(c *handlerConfig) { c.maxBodyBytes = n })
}

// WithHeartbeat sets how long an SSE stream may stay silent before the
// handler writes a ": ping" comment, which keeps proxies from closing it
// (default 15 s, [DefaultHeartbeat]; 0 turns heartbeats off). Protobuf
// streams carry no comments and get none.
func WithHeartbeat(d time.Duration) HandlerOption {
	return handlerOption(func(c *handlerConfig) { c.heartbeat = d })
}

// WithWriteTimeout bounds each write to the client (default 30 s,
// [DefaultWriteTimeout]): before the body is read, before each burst of
// writes (the events written before one flush) and every 64 writes within
// a burst, the connection's write deadline is moved to now+d, so a
// server's WriteTimeout cuts neither a slow upload's answer nor a long
// run, and a client that stops reading is treated as gone after d. 0
// clears the deadline for the whole stream instead.
func WithWriteTimeout(d time.Duration) HandlerOption {
	return handlerOption(func(c *handlerConfig) { c.writeTimeout = d })
}

// WithHandlerLogger sets the logger for the per-run log line and for
// transport warnings (default [slog.Default]()). It is also the runs'
// logger unless [WithLogger] sets one.
func WithHandlerLogger(l *slog.Logger) HandlerOption {
	return handlerOption(func(c *handlerConfig) { c.logger = l })
}

// WithGate makes the handler take runs only while g admits them (default:
// no gate, runs are always taken). Share one [Gate] among every handler of a
// server and call [Gate.Shutdown] next to http.Server.Shutdown.
func WithGate(g *Gate) HandlerOption {
	return handlerOption(func(c *handlerConfig) { c.gate = g })
}

// WithStrictInput refuses request bodies with keys the protocol does not
// describe (422, see Strict). The default is lenient, as the protocol asks
// of servers, so that newer clients keep working.
func WithStrictInput() HandlerOption {
	return handlerOption(func(c *handlerConfig) { c.decode = append(c.decode, agui.Strict()) })
}

// WithCapabilities sets what the agent route's capabilities endpoint
// answers (default: what the agent's state type allows, see
// [DefaultCapabilities]). Read it back with [Handler.Capabilities].
func WithCapabilities(caps agui.Capabilities) HandlerOption {
	return handlerOption(func(c *handlerConfig) { c.capabilities = &caps })
}
