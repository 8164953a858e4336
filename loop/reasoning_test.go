package loop

import (
	"context"
	"iter"
	"slices"
	"sync"
	"testing"

	"github.com/agui-go/agui"
)

// Reasoning with an encrypted value is kept before its turn in the
// transcript and sent back to the provider; the event stream passes the
// verifier.
func TestReasoningEncryptedKept(t *testing.T) {
	var mu sync.Mutex
	var reqs [][]agui.Message
	p := ProviderFunc(func(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
		mu.Lock()
		n := len(reqs)
		reqs = append(reqs, slices.Clone(req.Messages))
		mu.Unlock()
		return func(yield func(Delta, error) bool) {
			if n > 0 {
				yield(Delta{Text: "done"}, nil)
				return
			}
			for _, d := range []Delta{
				{Reasoning: "think "}, {Reasoning: "hard"}, {ReasoningEncrypted: "sig-1", ReasoningEncryptedType: "acme.signature"},
				{ReasoningEncrypted: "redacted-2"},
				{ToolCall: &ToolCallDelta{Index: 0, ID: "c1", Name: "echo", Args: `{"id":"c1"}`}},
			} {
				if !yield(d, nil) {
					return
				}
			}
		}
	})
	in := agui.NewInput("thread-1", "run-1") // a 1.0 client
	in.Messages = []agui.Message{UserText("go")}
	evs := runCore(t, mustNew(t, p, WithTools(echoTool(t))), in)
	if _, ok := evs[len(evs)-1].(*agui.RunFinished); !ok {
		t.Fatalf("events %v", types(evs))
	}
	var values []string
	for _, ev := range evs {
		if e, ok := ev.(*agui.ReasoningEncryptedValue); ok {
			values = append(values, e.EncryptedValue)
			if e.Subtype != agui.EncryptedMessage || e.EntityID == "" || e.EncryptedValueType != "" {
				t.Fatalf("encrypted value %+v", e)
			}
		}
	}
	if !slices.Equal(values, []string{"sig-1", "redacted-2"}) {
		t.Fatalf("encrypted values %v", values)
	}
	second := reqs[1]
	// user, reasoning, reasoning, assistant, tool
	if len(second) != 5 {
		t.Fatalf("second request %d messages", len(second))
	}
	r1, ok1 := second[1].(*agui.ReasoningMessage)
	r2, ok2 := second[2].(*agui.ReasoningMessage)
	// The transcript keeps the type whatever the client's version.
	if !ok1 || !ok2 || r1.Content != "think hard" || r1.EncryptedValue != "sig-1" || r1.EncryptedValueType != "acme.signature" ||
		r2.Content != "" || r2.EncryptedValue != "redacted-2" || r2.EncryptedValueType != "" {
		t.Fatalf("reasoning %#v %#v", second[1], second[2])
	}
	if _, ok := second[3].(*agui.AssistantMessage); !ok {
		t.Fatalf("assistant turn %#v", second[3])
	}
}

// Reasoning without an encrypted value is streamed but not kept.
func TestPlainReasoningNotKept(t *testing.T) {
	a := mustNew(t, Script(Turn{Reasoning: "hmm", Text: "hi"}))
	res, err := a.Execute(t.Context(), Input{Messages: []agui.Message{UserText("x")}})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range res.Messages {
		if _, ok := m.(*agui.ReasoningMessage); ok {
			t.Fatalf("reasoning kept: %v", res.Messages)
		}
	}
}
