package a2ui

import "testing"

// The attempt log forgets the oldest run first and never holds more than
// its bound.
func TestAttemptLogBounded(t *testing.T) {
	l := attemptLog{max: 2}
	l.add("a", nil)
	l.add("b", nil)
	if got := len(l.add("a", nil)); got != 2 {
		t.Fatalf("run a has %d attempts, want 2", got)
	}
	l.add("c", nil) // forgets a
	if len(l.runs) != 2 || len(l.order) != 2 {
		t.Fatalf("holds %d runs (%v)", len(l.runs), l.order)
	}
	if got := len(l.add("a", nil)); got != 1 {
		t.Fatalf("a forgotten run starts over, got %d attempts", got)
	}
}
