package load

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// TestTickerHoldsUntilReleased runs the ticker agent in a synctest bubble:
// it streams one delta per interval for as long as it is held, then
// exactly extra more, and finishes.
func TestTickerHoldsUntilReleased(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		in := &agui.RunAgentInput{ThreadID: "t", RunID: "r"}
		// Released after 5.5 intervals: the first delta and five ticks.
		time.AfterFunc(550*time.Millisecond, func() { close(release) })
		var deltas int
		var last agui.Event
		for ev, err := range core.Run(t.Context(), tickerAgent(100*time.Millisecond, 3, release), in) {
			if err != nil {
				t.Fatal(err)
			}
			if ev.Type() == agui.TypeTextMessageContent {
				deltas++
			}
			last = ev
		}
		if want := 1 + 5 + 3; deltas != want {
			t.Errorf("%d deltas, want %d", deltas, want)
		}
		if last == nil || last.Type() != agui.TypeRunFinished {
			t.Errorf("the run ended with %v, want RUN_FINISHED", last)
		}
	})
}
