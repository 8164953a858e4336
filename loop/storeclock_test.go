package loop

import (
	"testing"
	"testing/synctest"
	"time"
)

// The store's time advances with the process's clock, whatever the
// process's clock reads.
func TestStoreClockAdvancesByElapsedTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
		skewed := func() time.Time { return time.Now().Add(-3 * time.Hour) }
		c := storeClock{at: store, local: skewed(), process: skewed}
		time.Sleep(90 * time.Second) // synctest's fake clock: elapsed, not waited
		if got, want := c.now(), store.Add(90*time.Second); !got.Equal(want) {
			t.Fatalf("store time %v, want %v", got, want)
		}
	})
}
