//go:build !agui_noverify

package core

import (
	"context"
	"strings"
	"testing"

	"github.com/agui-go/agui"
)

// The chain's output is verified again: a transformer that breaks the
// stream ends the run with RUN_ERROR instead of sending the client a
// broken stream.
func TestChainOutputVerified(t *testing.T) {
	dropStarts := Stateless(TransformerFunc(func(ev agui.Event, emit func(agui.Event) error) error {
		if ev.Type() == agui.TypeTextMessageStart {
			return nil
		}
		return emit(ev)
	}))
	evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		return agui.Success(), rc.Say("hi")
	},
		WithTransformers(dropStarts))
	equalTypes(t, evs, agui.TypeRunStarted, agui.TypeRunError)
	if e := last[*agui.RunError](t, evs); e.Code != string(agui.CodeProtocolViolation) || !strings.Contains(e.Message, "not-open") {
		t.Errorf("RUN_ERROR = %+v", e)
	}
}

// When what leaves the chain breaks a rule, the RUN_ERROR bypasses the
// whole chain: no transformer is to blame but its output is suspect.
func TestRunErrorBypassesChainOnVerifierFailure(t *testing.T) {
	outer := &ending{}
	bad := Stateless(TransformerFunc(func(ev agui.Event, emit func(agui.Event) error) error {
		if ev.Type() == agui.TypeTextMessageContent {
			return emit(&agui.TextMessageEnd{MessageID: "nope"})
		}
		return emit(ev)
	}))
	say := func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		return agui.Success(), rc.Say("hi")
	}
	evs := run(t, say, WithTransformers(outer.factory(), bad))
	if e := last[*agui.RunError](t, evs); e.Code == "" {
		t.Errorf("RUN_ERROR = %+v", e)
	}
	if len(outer.terminals) != 0 {
		t.Errorf("the chain saw %v", outer.terminals)
	}
}
