//go:build !agui_noverify

package core

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/agui-go/agui"
)

func TestEmitVerificationErrorReturnedAtOnce(t *testing.T) {
	var emitErr error
	evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		emitErr = rc.Emit(&agui.TextMessageContent{MessageID: "msg-1", Delta: "hello"})
		// The rejected event is not sent; the run goes on.
		return agui.Success(), rc.Say("fine")
	})
	var ve *agui.VerificationError
	if agui.CodeOf(emitErr) != agui.CodeProtocolViolation || !errors.As(emitErr, &ve) || ve.Rule != agui.RuleNotOpen || ve.ID != "msg-1" {
		t.Fatalf("Emit error = %v", emitErr)
	}
	equalTypes(t, evs, agui.TypeRunStarted, agui.TypeTextMessageStart, agui.TypeTextMessageContent, agui.TypeTextMessageEnd, agui.TypeRunFinished)
}

// A RUN_FINISHED the verifier rejects becomes RUN_ERROR: here a message
// opened by a raw Emit, which the runner does not track, is left open.
func TestRejectedFinishBecomesRunError(t *testing.T) {
	evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		return agui.Success(), rc.Emit(&agui.TextMessageStart{MessageID: "raw"})
	})
	equalTypes(t, evs, agui.TypeRunStarted, agui.TypeTextMessageStart, agui.TypeRunError)
	if e := last[*agui.RunError](t, evs); e.Code != string(agui.CodeProtocolViolation) || !strings.Contains(e.Message, "open-at-finish") {
		t.Errorf("RUN_ERROR = %+v", e)
	}
}
