package eino

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/cloudwego/eino/adk"
)

// KV is the storage behind [NewCheckPointStore]: byte values by key, with
// an expiry. Redis, a SQL table or any shared store implements it in a few
// lines; Get reports a missing (or expired) key with ok false and a nil
// error. Implementations must be safe for concurrent use.
type KV interface {
	Get(ctx context.Context, key string) (value []byte, ok bool, err error)
	// Set stores value under key; ttl 0 means it does not expire.
	Set(ctx context.Context, key string, value []byte, ttl time.Duration) error
}

// CheckPointOption configures [NewCheckPointStore]; options are applied
// once, by it.
type CheckPointOption func(*checkPoints) error

// WithKeyPrefix sets the prefix of the keys checkpoints are stored under,
// so that one KV serves several routes or applications (default
// "agui:eino:"). The adapter checkpoints a run under its thread id,
// prefixed by the request's principal when the route names one.
func WithKeyPrefix(p string) CheckPointOption {
	return func(c *checkPoints) error {
		c.prefix = p
		return nil
	}
}

// WithTTL sets how long a checkpoint is kept after it is written: how
// long a paused thread can be resumed (default 24h; 0 keeps checkpoints
// until overwritten).
func WithTTL(d time.Duration) CheckPointOption {
	return func(c *checkPoints) error {
		if d < 0 {
			return errors.New("eino: WithTTL: negative duration")
		}
		c.ttl = d
		return nil
	}
}

// checkPoints is an adk.CheckPointStore over a KV.
type checkPoints struct {
	kv     KV
	prefix string
	ttl    time.Duration
}

// NewCheckPointStore returns the eino checkpoint store (adk's and
// compose's CheckPointStore are the same interface) that keeps
// checkpoints in kv under a prefix and with an expiry. It is safe for
// concurrent use if kv is.
func NewCheckPointStore(kv KV, opts ...CheckPointOption) (adk.CheckPointStore, error) {
	if kv == nil {
		return nil, errors.New("eino: NewCheckPointStore: nil KV")
	}
	c := &checkPoints{kv: kv, prefix: "agui:eino:", ttl: 24 * time.Hour}
	for _, o := range opts {
		if err := o(c); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// Get reads checkpoint id; an empty one (the [Agent] empties a thread's
// checkpoint when a run completes) reads as none.
func (c *checkPoints) Get(ctx context.Context, id string) ([]byte, bool, error) {
	b, ok, err := c.kv.Get(ctx, c.prefix+id)
	if err != nil || len(b) == 0 {
		return nil, false, err
	}
	return b, ok, nil
}

func (c *checkPoints) Set(ctx context.Context, id string, checkPoint []byte) error {
	return c.kv.Set(ctx, c.prefix+id, checkPoint, c.ttl)
}

// MemoryKV is a [KV] in this process's memory, for tests and a single
// replica: a server that restarts forgets its paused threads, and other
// replicas cannot resume them. Expired entries are dropped when a later
// Set runs. The zero value is ready to use; it is safe for concurrent use.
type MemoryKV struct {
	mu sync.Mutex
	m  map[string]memEntry
}

type memEntry struct {
	value   []byte
	expires time.Time // zero: never
}

var _ KV = (*MemoryKV)(nil)

// Get implements [KV].
func (m *MemoryKV) Get(_ context.Context, key string) ([]byte, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.m[key]
	if !ok || !e.expires.IsZero() && !time.Now().Before(e.expires) {
		return nil, false, nil
	}
	return append([]byte(nil), e.value...), true, nil
}

// Set implements [KV].
func (m *MemoryKV) Set(_ context.Context, key string, value []byte, ttl time.Duration) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	if m.m == nil {
		m.m = map[string]memEntry{}
	}
	for k, e := range m.m {
		if !e.expires.IsZero() && !now.Before(e.expires) {
			delete(m.m, k)
		}
	}
	e := memEntry{value: append([]byte(nil), value...)}
	if ttl > 0 {
		e.expires = now.Add(ttl)
	}
	m.m[key] = e
	return nil
}
