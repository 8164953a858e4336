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
	cacheBytes  int64
}

func defaults() config {
	return config{prefix: "agui:loop:", idleTTL: 7 * 24 * time.Hour, awaitingTTL: 30 * 24 * time.Hour, cacheBytes: DefaultCacheBytes}
}

// DefaultCacheBytes is [WithCacheBytes]'s default: 64 MiB.
const DefaultCacheBytes = 64 << 20

// WithCacheBytes bounds the transcripts a [Store] keeps decoded in memory,
// counted in their messages' JSON bytes (default 64 MiB,
// [DefaultCacheBytes]; the decoded messages take more than their JSON);
// 0 keeps none. A Store keeps the transcript of each thread it last
// loaded or saved, so that its next load of the same version (a run's
// first, or a busy holder's read of its checkpoint) reads the hash
// without its messages: a run on the replica that ran the thread's
// previous one neither reads nor decodes the transcript. Past the bound,
// arbitrary threads are forgotten, and their next load reads and decodes
// the whole transcript.
func WithCacheBytes(n int64) Option {
	return func(c *config) error {
		if n < 0 {
			return fmt.Errorf("redisstore: CacheBytes %d: negative", n)
		}
		c.cacheBytes = n
		return nil
	}
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
