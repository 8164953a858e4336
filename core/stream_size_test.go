package core

import (
	"context"
	"strings"
	"testing"

	"github.com/agui-go/agui"
)

// The case: 4 MiB of invalid UTF-8 said by an agent (each byte a
// six-byte escape, 24 MiB of JSON) reaches the consumer as deltas that
// each fit the frame limit and add up to the original; the run succeeds.
func TestRunSplitsOversizedText(t *testing.T) {
	big := strings.Repeat("\xff", 4<<20)
	evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		return agui.Success(), rc.Say(big)
	})
	last[*agui.RunFinished](t, evs)
	var text strings.Builder
	pieces := 0
	for _, ev := range evs {
		if e, ok := ev.(*agui.TextMessageContent); ok {
			if _, err := agui.AppendSSE(nil, ev); err != nil {
				t.Fatal(err)
			}
			text.WriteString(e.Delta)
			pieces++
		}
	}
	if text.String() != big || pieces < 3 {
		t.Fatalf("%d pieces adding up to %d bytes", pieces, text.Len())
	}
}

// Any other event over the limit fails the emit that produced it with a
// SERIALIZATION error, is not delivered, and the run ends with RUN_ERROR
// SERIALIZATION even when the agent ignores the error.
func TestOversizedEventFailsEmit(t *testing.T) {
	var emitErr error
	evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		emitErr = rc.Emit(&agui.Custom{Name: "big", Value: strings.Repeat("x", agui.MaxEventSize)})
		return agui.Success(), nil
	})
	if agui.CodeOf(emitErr) != agui.CodeSerialization {
		t.Fatalf("Emit error %v, want SERIALIZATION", emitErr)
	}
	equalTypes(t, evs, agui.TypeRunStarted, agui.TypeRunError)
	if e := last[*agui.RunError](t, evs); e.Code != string(agui.CodeSerialization) {
		t.Fatalf("RUN_ERROR = %+v", e)
	}
}

// A result too large for RUN_FINISHED ends the run with RUN_ERROR
// SERIALIZATION instead.
func TestOversizedResultFailsRun(t *testing.T) {
	evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		rc.SetResult(strings.Repeat("x", agui.MaxEventSize))
		return agui.Success(), nil
	})
	if e := last[*agui.RunError](t, evs); e.Code != string(agui.CodeSerialization) {
		t.Fatalf("RUN_ERROR = %+v", e)
	}
}
