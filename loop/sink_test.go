//go:build !agui_noverify

package loop

import (
	"context"
	"errors"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// A tool that sends an event out of order (the end of a message never
// started) through its call's sink, and fails the run with the refusal:
// run directly, the run fails with the verifier's code, as it does hosted
// by core, since both take one event path.
func TestExecuteIsVerified(t *testing.T) {
	agent := func() *Agent {
		broken, err := NewTool("broken", "breaks the stream", func(ctx context.Context, _ struct{}) (string, error) {
			sc, _ := scopeOf(ctx)
			return "", Propagate(sc.sink.emit(&agui.TextMessageEnd{MessageID: "never-started"}))
		})
		if err != nil {
			t.Fatal(err)
		}
		return mustNew(t, Script(Turn{Calls: []ScriptedCall{{ID: "c1", Name: "broken", Args: `{}`}}}, Turn{Text: "unreached"}), WithTools(broken))
	}

	rec := &recorder{}
	res, err := agent().Execute(t.Context(), Input{Messages: []agui.Message{UserText("go")}, OnEvent: rec.on})
	var ve *agui.VerificationError
	if agui.CodeOf(err) != agui.CodeProtocolViolation || !errors.As(err, &ve) || res.FinishReason != FinishError {
		t.Fatalf("direct: %s, err %v", res.FinishReason, err)
	}
	evs := rec.events()
	if len(evs) == 0 || evs[0].Type() != agui.TypeRunStarted {
		t.Fatalf("the direct stream starts with %v", evs)
	}
	if re, ok := evs[len(evs)-1].(*agui.RunError); !ok || re.Code != string(agui.CodeProtocolViolation) {
		t.Fatalf("the direct stream ends with %#v", evs[len(evs)-1])
	}

	var last agui.Event
	for ev, err := range core.Run(t.Context(), agent(), agui.NewInput("t", "r")) {
		if err != nil {
			t.Fatal(err)
		}
		last = ev
	}
	if re, ok := last.(*agui.RunError); !ok || re.Code != string(agui.CodeProtocolViolation) {
		t.Fatalf("the hosted stream ends with %#v", last)
	}
}
