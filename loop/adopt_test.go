package loop

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/agui-go/agui"
)

func TestAdoptHistory(t *testing.T) {
	call := func(ids ...string) *agui.AssistantMessage {
		m := &agui.AssistantMessage{ID: "a-" + ids[0]}
		for _, id := range ids {
			m.ToolCalls = append(m.ToolCalls, agui.ToolCall{ID: id, Function: agui.FunctionCall{Name: "echo", Arguments: `{"id":"` + id + `"}`}})
		}
		return m
	}
	u := func(id string) *agui.UserMessage { return &agui.UserMessage{ID: id, Content: agui.TextContent(id)} }
	cases := []struct {
		name    string
		off     bool
		history []agui.Message
		// want is the transcript before the model's reply, as dump lines
		// of role and call id or user text.
		want    []string
		results map[string]string
		kinds   map[string]ToolErrorKind
	}{{
		name:    "a call without a result is not run",
		history: []agui.Message{u("u1"), call("h1", "h2"), toolResult("t2", "h2", "client said"), toolResult("tx", "orphan", "x"), u("u2")},
		want:    []string{"user u1", "assistant", "tool h1", "tool h2", "user u2"},
		results: map[string]string{"h2": "client said"},
		kinds:   map[string]ToolErrorKind{"h1": KindNotRun, "h2": ""},
	}, {
		name:    "results in call order",
		history: []agui.Message{u("u1"), call("h1", "h2"), toolResult("t2", "h2", "two"), toolResult("t1", "h1", "one"), &agui.AssistantMessage{ID: "a2", Content: "done"}, u("u2")},
		want:    []string{"user u1", "assistant", "tool h1", "tool h2", "assistant", "user u2"},
		results: map[string]string{"h1": "one", "h2": "two"},
	}, {
		name:    "a repeated call id is dropped",
		history: []agui.Message{u("u1"), call("h1"), toolResult("t1", "h1", "one"), call("h1"), toolResult("t1b", "h1", "again"), u("u2")},
		want:    []string{"user u1", "assistant", "tool h1", "assistant", "user u2"},
		results: map[string]string{"h1": "one"},
	}, {
		name:    "the history ends with an unanswered call",
		history: []agui.Message{u("u1"), call("h1")},
		want:    []string{"user u1", "assistant", "tool h1"},
		kinds:   map[string]ToolErrorKind{"h1": KindNotRun},
	}, {
		name:    "off: only user messages",
		off:     true,
		history: []agui.Message{u("u1"), call("h1"), toolResult("t1", "h1", "one"), u("u2")},
		want:    []string{"user u1", "user u2"},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var ran atomic.Int64
			echo, err := NewTool("echo", "", func(context.Context, workArgs) (string, error) { ran.Add(1); return "ran", nil })
			if err != nil {
				t.Fatal(err)
			}
			a := mustNew(t, Script(Turn{Text: "reply"}, Turn{Text: "reply"}, Turn{Text: "reply"}), WithTools(echo), WithAdoptHistory(!tc.off))
			res, err := a.Execute(t.Context(), Input{ThreadID: "new", Messages: tc.history})
			if err != nil || res.FinishReason != FinishStop {
				t.Fatalf("%v %s", err, res.FinishReason)
			}
			assertResult(t, res)
			if ran.Load() != 0 {
				t.Fatal("a call of the client's history ran")
			}
			var got []string
			for _, m := range res.Messages[:len(res.Messages)-1] {
				switch m := m.(type) {
				case *agui.UserMessage:
					got = append(got, "user "+m.Content.String())
				case *agui.ToolMessage:
					got = append(got, "tool "+m.ToolCallID)
				default:
					got = append(got, string(m.Role()))
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("transcript %v, want %v\n%s", got, tc.want, dump(res.Messages))
			}
			if last, ok := res.Messages[len(res.Messages)-1].(*agui.AssistantMessage); !ok || last.Content != "reply" {
				t.Fatalf("no reply\n%s", dump(res.Messages))
			}
			texts, kinds := results(res.Messages), errorKinds(res.Messages)
			for id, want := range tc.results {
				if texts[id] != want {
					t.Fatalf("result of %s: %q, want %q", id, texts[id], want)
				}
			}
			for id, want := range tc.kinds {
				if kinds[id] != want {
					t.Fatalf("result of %s: kind %q, want %q", id, kinds[id], want)
				}
			}
		})
	}
}

// Any history a client sends for an unknown thread, with any tools,
// becomes a valid transcript (the checked store verifies it) or a clean
// refusal; nothing panics or runs.
func FuzzAdoptHistory(f *testing.F) {
	f.Add(`{"threadId":"t","runId":"r","messages":[{"id":"u","role":"user","content":"hi"},{"id":"a","role":"assistant","toolCalls":[{"id":"c1","type":"function","function":{"name":"echo","arguments":"{}"}},{"id":"c1","type":"function","function":{"name":"x","arguments":""}}]},{"id":"t","role":"tool","toolCallId":"c1","content":"r"}],"tools":[{"name":"theme"}]}`)
	f.Fuzz(func(t *testing.T, body string) {
		in, err := agui.DecodeInput([]byte(body))
		if err != nil {
			return
		}
		var ran atomic.Int64
		echo, err := NewTool("echo", "", func(context.Context, workArgs) (string, error) { ran.Add(1); return "ran", nil })
		if err != nil {
			t.Fatal(err)
		}
		a, err := New(Script(Turn{Text: "ok"}, Turn{Text: "ok"}, Turn{Text: "ok"}, Turn{Text: "ok"}), WithTools(echo))
		if err != nil {
			t.Fatal(err)
		}
		a.cfg.store = checkedStore{Store: a.cfg.store, t: t}
		res, err := a.Execute(t.Context(), Input{ThreadID: "t", Messages: in.Messages, Tools: in.Tools})
		if err != nil {
			return
		}
		if ran.Load() != 0 {
			t.Fatal("a call of the client's history ran")
		}
		if err := checkTranscript(res.Messages, res.FinishReason == FinishAwaitingClient); err != nil {
			t.Fatal(err)
		}
	})
}
