package core

import (
	"context"
	"strings"
	"testing"
)

func TestSayShape(t *testing.T) {
	evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (Outcome, error) {
		if err := rc.Say("hello"); err != nil {
			return Outcome{}, err
		}
		return Success(), rc.Say("")
	})
	equalTypes(t, evs, TypeRunStarted,
		TypeTextMessageStart, TypeTextMessageContent, TypeTextMessageEnd,
		TypeTextMessageStart, TypeTextMessageEnd,
		TypeRunFinished)
	start := evs[1].(*TextMessageStart)
	if start.Role != RoleAssistant || !strings.HasPrefix(start.MessageID, "msg-") {
		t.Errorf("TEXT_MESSAGE_START = %+v", start)
	}
	if c := evs[2].(*TextMessageContent); c.MessageID != start.MessageID || c.Delta != "hello" {
		t.Errorf("TEXT_MESSAGE_CONTENT = %+v", c)
	}
	if evs[4].(*TextMessageStart).MessageID == start.MessageID {
		t.Error("two messages share an id")
	}
}

func TestThinkShape(t *testing.T) {
	evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (Outcome, error) {
		return Success(), rc.Think("hmm")
	})
	equalTypes(t, evs, TypeRunStarted,
		TypeReasoningStart, TypeReasoningMessageStart, TypeReasoningMessageContent,
		TypeReasoningMessageEnd, TypeReasoningEnd, TypeRunFinished)
	id := evs[1].(*ReasoningStart).MessageID
	if !strings.HasPrefix(id, "reasoning-") {
		t.Errorf("reasoning id %q", id)
	}
	for _, ev := range evs[2:6] {
		var got string
		switch ev := ev.(type) {
		case *ReasoningMessageStart:
			got = ev.MessageID
		case *ReasoningMessageContent:
			got = ev.MessageID
		case *ReasoningMessageEnd:
			got = ev.MessageID
		case *ReasoningEnd:
			got = ev.MessageID
		}
		if got != id {
			t.Errorf("%s names %q, want %q", ev.Type(), got, id)
		}
	}
}

func TestNewID(t *testing.T) {
	e := &Emitter{}
	seen := map[string]bool{}
	for range 1000 {
		id := e.NewID("msg")
		if !strings.HasPrefix(id, "msg-") || len(id) != len("msg-")+36 || seen[id] {
			t.Fatalf("bad or repeated id %q", id)
		}
		seen[id] = true
	}
	if id := e.NewID(""); len(id) != 36 {
		t.Errorf("NewID(\"\") = %q", id)
	}
}

// Ids are fresh in every run: a second turn never reuses the first's.
func TestIDsFreshAcrossRuns(t *testing.T) {
	say := func(ctx context.Context, rc *RunContext[NoState]) (Outcome, error) { return Success(), rc.Say("x") }
	a := run(t, say)[1].(*TextMessageStart).MessageID
	b := run(t, say)[1].(*TextMessageStart).MessageID
	if a == b {
		t.Errorf("both runs used message id %q", a)
	}
}

func TestEmitTagsForSubagent(t *testing.T) {
	evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (Outcome, error) {
		sub, err := rc.Subagent("helper")
		if err != nil {
			return Outcome{}, err
		}
		if err := sub.Emit(&Custom{Name: "mine"}); err != nil {
			return Outcome{}, err
		}
		// An event that already names an owner keeps it.
		if err := sub.Emit(&Custom{Name: "tagged", Attribution: Attribution{SubagentRunID: "elsewhere"}}); err != nil {
			return Outcome{}, err
		}
		if err := rc.Emit(&Custom{Name: "parent"}); err != nil {
			return Outcome{}, err
		}
		return Success(), sub.Finish(nil)
	})
	sub := evs[1].(*SubagentStarted).SubagentRunID
	want := map[string]string{"mine": sub, "tagged": "elsewhere", "parent": ""}
	for _, ev := range evs {
		if c, ok := ev.(*Custom); ok && c.SubagentRunID != want[c.Name] {
			t.Errorf("CUSTOM %s tagged %q, want %q", c.Name, c.SubagentRunID, want[c.Name])
		}
	}
}
