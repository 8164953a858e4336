package pgstore

import "fmt"

// Option configures a [Store].
type Option func(*config) error

type config struct {
	cacheBytes int64
}

// DefaultCacheBytes is [WithCacheBytes]'s default: 64 MiB.
const DefaultCacheBytes = 64 << 20

// WithCacheBytes bounds the transcripts a [Store] keeps decoded in memory,
// counted in their messages' JSON bytes (default 64 MiB,
// [DefaultCacheBytes]; the decoded messages take more than their JSON);
// 0 keeps none. A Store keeps the transcript of each thread it
// last loaded or saved, so that its next load of the same version reads
// the thread's row alone and its next save over it encodes, hashes and
// sends only the new messages: a loop turn's cost on the replica that ran
// the thread's previous turn does not grow with the thread. Past the
// bound, arbitrary threads are forgotten, and their next load and save
// read and encode the whole transcript.
func WithCacheBytes(n int64) Option {
	return func(c *config) error {
		if n < 0 {
			return fmt.Errorf("pgstore: CacheBytes %d: negative", n)
		}
		c.cacheBytes = n
		return nil
	}
}
