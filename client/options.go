package client

import (
	"log/slog"
	"net/http"
	"time"
)

// Option configures an [Agent]; pass options to [New]. An Option holds no
// state of its own and may be passed to any number of New calls.
type Option func(*config) error

type config struct {
	httpClient *http.Client
	header     http.Header
	protobuf   bool
	warn       func(Warning)
	// agentVersion is the agent's declared pre-1.0 version, "" when current.
	agentVersion string
	// reconnects and reconnectDelay govern rejoining a resumable run.
	reconnects     int
	reconnectDelay time.Duration
}

// WithHTTPClient sets the client requests go through, for its transport,
// TLS settings and timeouts (default [http.DefaultClient]). A run's
// deadline and cancellation come from its context, not from here.
func WithHTTPClient(c *http.Client) Option {
	return func(cfg *config) error {
		if c == nil {
			return errOption("WithHTTPClient: nil client")
		}
		cfg.httpClient = c
		return nil
	}
}

// WithHeader adds a header to every request, such as Authorization
// (default: none beyond Content-Type and Accept).
func WithHeader(key, value string) Option {
	return func(cfg *config) error {
		if key == "" {
			return errOption("WithHeader: empty key")
		}
		cfg.header.Add(key, value)
		return nil
	}
}

// WithProtobuf asks for the protobuf encoding, with SSE as the fallback
// the server may pick instead (default: SSE only). Whichever the response's
// Content-Type names is read.
func WithProtobuf() Option {
	return func(cfg *config) error {
		cfg.protobuf = true
		return nil
	}
}

// WithWarnings sets the callback that receives each [Warning]: something the
// agent sent that the client dropped, stripped or could not apply while the
// run went on (default: logged with [slog.Default] at level Warn). The
// callback runs on the goroutine that reads the stream.
func WithWarnings(f func(Warning)) Option {
	return func(cfg *config) error {
		if f == nil {
			return errOption("WithWarnings: nil callback")
		}
		cfg.warn = f
		return nil
	}
}

func defaultConfig() config {
	return config{
		httpClient:     http.DefaultClient,
		header:         http.Header{},
		reconnects:     5,
		reconnectDelay: time.Second,
		warn: func(w Warning) {
			slog.Default().Warn("agui client: "+w.Message, "event", string(w.Event))
		},
	}
}

// WithAgentVersion declares the AG-UI protocol version the agent speaks,
// so the client talks to an agent older than 1.0 as @ag-ui/client does to
// such a peer (default "": a current agent; a 1.x version changes nothing). Toward
// a pre-1.0 agent the request omits protocolVersion; toward 0.0.57 or
// older, subagent events and attribution are dropped with a warning;
// toward 0.0.39 or older, user messages' content parts are flattened to
// their text, with a warning when anything else is dropped.
func WithAgentVersion(v string) Option {
	return func(cfg *config) error {
		if _, ok := parseVersion3(v); !ok {
			return errOption("WithAgentVersion: " + v + " is not a MAJOR.MINOR.PATCH version")
		}
		cfg.agentVersion = v
		return nil
	}
}

// WithReconnects sets how a run on a resumable route survives a dropped
// connection: up to n reconnects in a row that bring no new event, the
// first after delay, each next one after twice the last, up to eight
// times delay (default 5 and 1s, as resumableFetch; n = 0 turns rejoining
// off). A route is resumable when its answer names the run's URL in
// Content-Location; other routes are never retried, since a second POST
// would start a second run. Cancelling a run's context is a deliberate
// stop: on a resumable route the client sends DELETE to the run's URL.
func WithReconnects(n int, delay time.Duration) Option {
	return func(cfg *config) error {
		if n < 0 || delay <= 0 {
			return errOption("WithReconnects: n must be at least 0 and delay positive")
		}
		cfg.reconnects, cfg.reconnectDelay = n, delay
		return nil
	}
}
