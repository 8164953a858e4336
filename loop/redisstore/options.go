package redisstore

import (
	"errors"
	"fmt"
	"time"
)

// Option configures a [Store].
type Option func(*config) error

type config struct {
	prefix      string
	idleTTL     time.Duration
	awaitingTTL time.Duration
}

func defaults() config {
	return config{prefix: "agui:loop:", idleTTL: 7 * 24 * time.Hour, awaitingTTL: 30 * 24 * time.Hour}
}

// WithKeyPrefix is the start of every key the [Store] writes (default
// "agui:loop:"); give each application sharing a Redis its own. It must
// not contain '{' or '}', which would change the keys' Cluster hash tag.
func WithKeyPrefix(p string) Option {
	return func(c *config) error {
		if p == "" {
			return errors.New("redisstore: KeyPrefix: empty")
		}
		for _, r := range p {
			if r == '{' || r == '}' {
				return fmt.Errorf("redisstore: KeyPrefix %q: no braces, they would change the Cluster hash tag", p)
			}
		}
		c.prefix = p
		return nil
	}
}

// WithIdleTTL is how long a finished (idle) thread's checkpoint is kept after
// its last run (default 7 days); 0 keeps it forever. A running thread's
// checkpoint lives its lease plus this.
func WithIdleTTL(d time.Duration) Option {
	return func(c *config) error {
		if d < 0 {
			return fmt.Errorf("redisstore: IdleTTL %v: negative", d)
		}
		if d > 0 && d < time.Millisecond {
			return fmt.Errorf("redisstore: IdleTTL %v: Redis expires in whole milliseconds", d)
		}
		c.idleTTL = d
		return nil
	}
}

// WithAwaitingTTL is how long a thread waiting for an approval is kept
// (default 30 days); 0 keeps it forever. After it, the approval can no
// longer be answered (BAD_RESUME) and the thread's history is gone.
func WithAwaitingTTL(d time.Duration) Option {
	return func(c *config) error {
		if d < 0 {
			return fmt.Errorf("redisstore: AwaitingTTL %v: negative", d)
		}
		if d > 0 && d < time.Millisecond {
			return fmt.Errorf("redisstore: AwaitingTTL %v: Redis expires in whole milliseconds", d)
		}
		c.awaitingTTL = d
		return nil
	}
}
