package loop

import "time"

// storeClock is the store's clock ([Store.Now]) as one run reads it: read
// once, when the run claims its thread, and advanced from there by the
// process's clock, whose elapsed time is right (it is monotonic) even
// when its reading is off. So a replica whose clock is skewed stamps the
// same leases and deadlines as one whose clock is right. A storeClock is
// owned by its run's goroutine.
type storeClock struct {
	// at is the store's time, read when the process's clock said local.
	at, local time.Time
	process   func() time.Time
}

// now is the store's time now.
func (c storeClock) now() time.Time { return c.at.Add(c.process().Sub(c.local)) }
