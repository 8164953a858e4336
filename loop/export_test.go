package loop

import "time"

// WithClock sets the agent's process clock, for tests that stand for a
// replica whose clock is skewed.
func WithClock(now func() time.Time) Option {
	return func(c *config) error { c.now = now; return nil }
}
