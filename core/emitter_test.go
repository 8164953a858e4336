package core

import (
	"context"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/agui-go/agui"
)

func TestSayShape(t *testing.T) {
	evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		if err := rc.Say("hello"); err != nil {
			return agui.Outcome{}, err
		}
		return agui.Success(), rc.Say("")
	})
	equalTypes(t, evs, agui.TypeRunStarted,
		agui.TypeTextMessageStart, agui.TypeTextMessageContent, agui.TypeTextMessageEnd,
		agui.TypeTextMessageStart, agui.TypeTextMessageEnd,
		agui.TypeRunFinished)
	start := evs[1].(*agui.TextMessageStart)
	if start.Role != agui.RoleAssistant || !strings.HasPrefix(start.MessageID, "msg-") {
		t.Errorf("TEXT_MESSAGE_START = %+v", start)
	}
	if c := evs[2].(*agui.TextMessageContent); c.MessageID != start.MessageID || c.Delta != "hello" {
		t.Errorf("TEXT_MESSAGE_CONTENT = %+v", c)
	}
	if evs[4].(*agui.TextMessageStart).MessageID == start.MessageID {
		t.Error("two messages share an id")
	}
}

func TestThinkShape(t *testing.T) {
	evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		return agui.Success(), rc.Think("hmm")
	})
	equalTypes(t, evs, agui.TypeRunStarted,
		agui.TypeReasoningStart, agui.TypeReasoningMessageStart, agui.TypeReasoningMessageContent,
		agui.TypeReasoningMessageEnd, agui.TypeReasoningEnd, agui.TypeRunFinished)
	id := evs[1].(*agui.ReasoningStart).MessageID
	if !strings.HasPrefix(id, "reasoning-") {
		t.Errorf("reasoning id %q", id)
	}
	for _, ev := range evs[2:6] {
		var got string
		switch ev := ev.(type) {
		case *agui.ReasoningMessageStart:
			got = ev.MessageID
		case *agui.ReasoningMessageContent:
			got = ev.MessageID
		case *agui.ReasoningMessageEnd:
			got = ev.MessageID
		case *agui.ReasoningEnd:
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
	say := func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		return agui.Success(), rc.Say("x")
	}
	a := run(t, say)[1].(*agui.TextMessageStart).MessageID
	b := run(t, say)[1].(*agui.TextMessageStart).MessageID
	if a == b {
		t.Errorf("both runs used message id %q", a)
	}
}

func TestEmitTagsForSubagent(t *testing.T) {
	evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		sub, err := rc.Subagent("helper")
		if err != nil {
			return agui.Outcome{}, err
		}
		if err := sub.Emit(&agui.Custom{Name: "mine"}); err != nil {
			return agui.Outcome{}, err
		}
		// An event that already names an owner keeps it.
		if err := sub.Emit(&agui.Custom{Name: "tagged", Attribution: agui.Attribution{SubagentRunID: "elsewhere"}}); err != nil {
			return agui.Outcome{}, err
		}
		if err := rc.Emit(&agui.Custom{Name: "parent"}); err != nil {
			return agui.Outcome{}, err
		}
		return agui.Success(), sub.Finish(nil)
	})
	sub := evs[1].(*agui.SubagentStarted).SubagentRunID
	want := map[string]string{"mine": sub, "tagged": "elsewhere", "parent": ""}
	for _, ev := range evs {
		if c, ok := ev.(*agui.Custom); ok && c.SubagentRunID != want[c.Name] {
			t.Errorf("CUSTOM %s tagged %q, want %q", c.Name, c.SubagentRunID, want[c.Name])
		}
	}
}

// newID's ids are RFC 9562 version 4 UUIDs in their canonical text, as
// the UUID package parses them, and cost one allocation (the string; the
// race detector's instrumentation moves the random bytes to the heap too).
func TestNewIDIsAVersion4UUID(t *testing.T) {
	for range 100 {
		id := newID("msg")
		u, err := uuid.Parse(strings.TrimPrefix(id, "msg-"))
		if err != nil || u.Version() != 4 || u.Variant() != uuid.RFC4122 || u.String() != strings.TrimPrefix(id, "msg-") {
			t.Fatalf("newID = %q: %v, version %v, variant %v", id, err, u.Version(), u.Variant())
		}
	}
	if n := testing.AllocsPerRun(100, func() { _ = newID("msg") }); n > 2 {
		t.Errorf("newID allocates %v times, want 1 (2 under the race detector)", n)
	}
}
