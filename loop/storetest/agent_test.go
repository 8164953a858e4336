package storetest

import (
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
)

// The loop checks fail on a store that is not shared: two agents each on
// their own store cannot resume each other's approvals.
func TestAgentChecksNeedASharedStore(t *testing.T) {
	a, b, runs := bookingAgentsOn(t, loop.NewMemoryStore(), loop.NewMemoryStore())
	answer := pause(t, a, "trip")
	_, err := b.Execute(t.Context(), loop.Input{ThreadID: "trip", Resume: []agui.ResumeEntry{answer}})
	if err == nil || runs.Load() != 0 {
		t.Fatalf("resume on an agent with another store: %v, tool ran %d times", err, runs.Load())
	}
}
