//go:build !agui_noverify

package agui_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/agui-go/agui"
)

func TestVerifierRejectsTypeWithoutValue(t *testing.T) {
	untyped := func(mut func([]agui.Message)) []agui.Message {
		msgs := typedEvents()[1].(*agui.MessagesSnapshot).Messages
		mut(msgs)
		return msgs
	}
	cases := []struct {
		name string
		ev   agui.Event
		id   string
	}{
		{"event", &agui.ReasoningEncryptedValue{Subtype: agui.EncryptedMessage, EntityID: "r-1", EncryptedValueType: "acme.x"}, "r-1"},
		{"snapshot message", &agui.MessagesSnapshot{Messages: untyped(func(ms []agui.Message) {
			ms[4].(*agui.ToolMessage).EncryptedValue = ""
		})}, "m-tool"},
		{"snapshot tool call", &agui.MessagesSnapshot{Messages: untyped(func(ms []agui.Message) {
			ms[2].(*agui.AssistantMessage).ToolCalls[0].EncryptedValue = ""
		})}, "tc-1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var v agui.Verifier
			if err := v.Observe(&agui.RunStarted{ThreadID: "t", RunID: "r"}); err != nil {
				t.Fatal(err)
			}
			checkTypeWithoutValue(t, v.Observe(c.ev), c.ev.Type(), c.id)
		})
	}
	t.Run("run started input", func(t *testing.T) {
		var v agui.Verifier
		in := &agui.RunAgentInput{ThreadID: "t", RunID: "r", Messages: untyped(func(ms []agui.Message) {
			ms[5].(*agui.ReasoningMessage).EncryptedValue = ""
		})}
		checkTypeWithoutValue(t, v.Observe(&agui.RunStarted{ThreadID: "t", RunID: "r", Input: in}), agui.TypeRunStarted, "m-reason")
	})
	t.Run("typed values pass", func(t *testing.T) {
		var v agui.Verifier
		for _, ev := range append(typedEvents()[2:], typedEvents()[:2]...) {
			if err := v.Observe(ev); err != nil {
				t.Fatalf("%s: %v", ev.Type(), err)
			}
		}
	})
}

func checkTypeWithoutValue(t *testing.T, err error, typ agui.EventType, id string) {
	t.Helper()
	if agui.CodeOf(err) != agui.CodeTypeWithoutValue {
		t.Fatalf("got %v (code %q), want code %s", err, agui.CodeOf(err), agui.CodeTypeWithoutValue)
	}
	var ve *agui.VerificationError
	if !errors.As(err, &ve) || ve.Rule != agui.RuleTypeWithoutValue || ve.ID != id || ve.Event != typ {
		t.Fatalf("got %#v, want rule %s for %q on %s", ve, agui.RuleTypeWithoutValue, id, typ)
	}
	if !strings.Contains(err.Error(), "type-without-value") || !strings.Contains(err.Error(), `"`+id+`"`) {
		t.Errorf("the message names neither the rule nor the id: %v", err)
	}
}
