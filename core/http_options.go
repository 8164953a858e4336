package core

import (
	"errors"
	"github.com/agui-go/agui"
	"log/slog"
	"time"
)

// HandlerOption configures a Handler. Options are plain values, safe to
// share between handlers and goroutines.
type HandlerOption interface{ applyHandler(*handlerConfig) }

type handlerConfig struct {
	maxBodyBytes int64
	heartbeat    time.Duration
	writeTimeout time.Duration
	readTimeout  time.Duration
	limits       InputLimits
	logger       *slog.Logger
	gate         *Gate
	runOptions   []Option
	decode       []agui.DecodeOption
}

type handlerOptionFunc func(*handlerConfig)

func (f handlerOptionFunc) applyHandler(c *handlerConfig) { f(c) }

// Defaults of the handler options.
const (
	DefaultMaxBodyBytes = 8 << 20
	DefaultHeartbeat    = 15 * time.Second
	DefaultWriteTimeout = 30 * time.Second
)

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
		return c, errors.New("agui: WithMaxBodyBytes needs a positive limit")
	case c.heartbeat < 0:
		return c, errors.New("agui: WithHeartbeat needs a non-negative interval")
	case c.writeTimeout < 0:
		return c, errors.New("agui: WithWriteTimeout needs a non-negative timeout")
	case c.readTimeout < 0:
		return c, errors.New("agui: WithReadTimeout needs a non-negative timeout")
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
// DefaultMaxBodyBytes); a larger body is answered 413 before any event.
func WithMaxBodyBytes(n int64) HandlerOption {
	return handlerOptionFunc(func(c *handlerConfig) { c.maxBodyBytes = n })
}

// WithHeartbeat sets how long an SSE stream may stay silent before the
// handler writes a ": ping" comment, which keeps proxies from closing it
// (default 15 s, DefaultHeartbeat; 0 turns heartbeats off). Protobuf
// streams carry no comments and get none.
func WithHeartbeat(d time.Duration) HandlerOption {
	return handlerOptionFunc(func(c *handlerConfig) { c.heartbeat = d })
}

// WithWriteTimeout bounds each write to the client (default 30 s,
// DefaultWriteTimeout): before the body is read and before every write the
// connection's write deadline is moved to now+d, so a server's WriteTimeout
// cuts neither a slow upload's answer nor a long run, and
// a client that stops reading is treated as gone after d. 0 clears the
// deadline for the whole stream instead.
func WithWriteTimeout(d time.Duration) HandlerOption {
	return handlerOptionFunc(func(c *handlerConfig) { c.writeTimeout = d })
}

// WithHandlerLogger sets the logger for the per-run log line and for
// transport warnings (default slog.Default()). It is also the runs'
// logger unless WithRunOptions sets one.
func WithHandlerLogger(l *slog.Logger) HandlerOption {
	return handlerOptionFunc(func(c *handlerConfig) { c.logger = l })
}

// WithGate makes the handler take runs only while g admits them (default:
// no gate, runs are always taken). Share one Gate among every handler of a
// server and call Gate.Shutdown next to http.Server.Shutdown.
func WithGate(g *Gate) HandlerOption {
	return handlerOptionFunc(func(c *handlerConfig) { c.gate = g })
}

// WithRunOptions passes opts to every run the handler starts (default
// none), before the per-request options given to Handler.Serve.
func WithRunOptions(opts ...Option) HandlerOption {
	return handlerOptionFunc(func(c *handlerConfig) { c.runOptions = append(c.runOptions, opts...) })
}

// WithStrictInput refuses request bodies with keys the protocol does not
// describe (422, see Strict). The default is lenient, as the protocol asks
// of servers, so that newer clients keep working.
func WithStrictInput() HandlerOption {
	return handlerOptionFunc(func(c *handlerConfig) { c.decode = append(c.decode, agui.Strict()) })
}
