package loop

import (
	"fmt"
	"slices"
	"testing"

	"github.com/agui-go/agui"
)

func ids(msgs []agui.Message) []string {
	var out []string
	for _, m := range msgs {
		out = append(out, m.MessageID())
	}
	return out
}

func TestTrimTranscript(t *testing.T) {
	u := func(id string) agui.Message { return &agui.UserMessage{ID: id} }
	a := func(id string) agui.Message { return &agui.AssistantMessage{ID: id} }
	tm := func(id string) agui.Message { return &agui.ToolMessage{ID: id} }
	msgs := []agui.Message{u("u1"), a("a1"), tm("t1"), a("a2"), u("u2"), a("a3"), u("u3")}
	for _, c := range []struct {
		n    int
		want []string
	}{
		{0, ids(msgs)},
		{7, ids(msgs)},
		{6, []string{"u2", "a3", "u3"}}, // the cut moves forward to a user message
		{3, []string{"u2", "a3", "u3"}},
		{2, []string{"u3"}},
		{1, []string{"u3"}},
	} {
		if got := ids(trimTranscript(msgs, c.n)); !slices.Equal(got, c.want) {
			t.Errorf("n=%d: %v, want %v", c.n, got, c.want)
		}
	}
	noUser := []agui.Message{u("u1"), a("a1"), tm("t1"), a("a2")}
	if got := trimTranscript(noUser, 2); len(got) != 4 {
		t.Errorf("no user message to cut at: kept %v", ids(got))
	}
}

// A bounded thread keeps its last exchanges; the whole history a client
// sends back does not bring the dropped ones back.
func TestMaxTranscript(t *testing.T) {
	a := mustNew(t, Script(Turn{Calls: echoCalls("c1")}, Turn{Text: "ok"}), WithTools(echoTool(t)), WithMaxTranscript(5))
	var client []agui.Message // everything the client has seen
	seen := map[string]bool{}
	// Each run adds 4 messages: user, assistant (call), tool, assistant.
	// The cut happens as a run adds its input: over 5, the transcript
	// starts at the latest user message that leaves at most 5.
	wantFirst := []string{"u0", "u0", "u1", "u2", "u3"}
	for i := range 5 {
		u := &agui.UserMessage{ID: fmt.Sprint("u", i), Content: agui.TextContent("hi")}
		client = append(client, u)
		seen[u.ID] = true
		res, err := a.Execute(t.Context(), Input{ThreadID: "t", Messages: client})
		if err != nil || res.FinishReason != FinishStop {
			t.Fatalf("run %d: %v %v", i, res.FinishReason, err)
		}
		got := ids(res.Messages)
		if got[0] != wantFirst[i] || len(got) > 5+3 {
			t.Fatalf("run %d: transcript %v, want it to start at %s, at most 8 long", i, got, wantFirst[i])
		}
		users := 0
		for _, m := range res.Messages {
			if _, ok := m.(*agui.UserMessage); ok {
				users++
			}
			if !seen[m.MessageID()] {
				seen[m.MessageID()] = true
				client = append(client, m)
			}
		}
		if users > 2 {
			t.Fatalf("run %d: %d user messages in %v: dropped ones came back", i, users, got)
		}
	}
	if _, err := New(Script(), WithMaxTranscript(-1)); err == nil {
		t.Fatal("negative MaxTranscript accepted")
	}
}
