package client

import (
	"testing"
	"time"
)

func TestBackoffDoublesUpToEightTimes(t *testing.T) {
	for attempt, want := range map[int]time.Duration{1: time.Second, 2: 2 * time.Second, 3: 4 * time.Second, 4: 8 * time.Second, 100: 8 * time.Second} {
		if got := backoff(time.Second, attempt); got != want {
			t.Errorf("attempt %d: %v, want %v", attempt, got, want)
		}
	}
}
