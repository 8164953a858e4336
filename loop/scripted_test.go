package loop

import (
	"errors"
	"testing"

	"github.com/agui-go/agui"
)

// The scripted provider picks its turn from the conversation: the number
// of assistant turns since the last user message.
func TestScriptedTurnByConversation(t *testing.T) {
	p := Script(Turn{Text: "first"}, Turn{Text: "second"})
	msgs := []agui.Message{UserText("a")}
	if text, err := collect(t.Context(), p.withMessages(msgs)); err != nil || text != "first" {
		t.Fatalf("%q %v", text, err)
	}
	msgs = append(msgs, &agui.AssistantMessage{ID: "m"})
	if text, _ := collect(t.Context(), p.withMessages(msgs)); text != "second" {
		t.Fatalf("%q", text)
	}
	msgs = append(msgs, &agui.AssistantMessage{ID: "m2"})
	if _, err := collect(t.Context(), p.withMessages(msgs)); !errors.Is(err, ErrScriptExhausted) {
		t.Fatalf("%v", err)
	}
	msgs = append(msgs, UserText("b"))
	if text, _ := collect(t.Context(), p.withMessages(msgs)); text != "first" {
		t.Fatalf("%q", text)
	}
	if p.Calls() != 4 {
		t.Fatalf("calls %d", p.Calls())
	}
}
