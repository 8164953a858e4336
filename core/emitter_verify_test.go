//go:build !agui_noverify

package core

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestEmitVerificationErrorReturnedAtOnce(t *testing.T) {
	var emitErr error
	evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (Outcome, error) {
		emitErr = rc.Emit(&TextMessageContent{MessageID: "msg-1", Delta: "hello"})
		// The rejected event is not sent; the run goes on.
		return Success(), rc.Say("fine")
	})
	var ve *VerificationError
	if CodeOf(emitErr) != CodeProtocolViolation || !errors.As(emitErr, &ve) || ve.Rule != RuleNotOpen || ve.ID != "msg-1" {
		t.Fatalf("Emit error = %v", emitErr)
	}
	equalTypes(t, evs, TypeRunStarted, TypeTextMessageStart, TypeTextMessageContent, TypeTextMessageEnd, TypeRunFinished)
}

// A RUN_FINISHED the verifier rejects becomes RUN_ERROR: here a message
// opened by a raw Emit, which the runner does not track, is left open.
func TestRejectedFinishBecomesRunError(t *testing.T) {
	evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (Outcome, error) {
		return Success(), rc.Emit(&TextMessageStart{MessageID: "raw"})
	})
	equalTypes(t, evs, TypeRunStarted, TypeTextMessageStart, TypeRunError)
	if e := last[*RunError](t, evs); e.Code != string(CodeProtocolViolation) || !strings.Contains(e.Message, "open-at-finish") {
		t.Errorf("RUN_ERROR = %+v", e)
	}
}
