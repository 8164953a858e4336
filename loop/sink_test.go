package loop

import (
	"errors"
	"testing"

	"github.com/agui-go/agui"
)

// The function sink opens and closes subagent invocations itself and
// attributes their events, nested ones included.
func TestFuncSinkSubagents(t *testing.T) {
	rec := &recorder{}
	s := newFuncSink(rec.on)
	sub, err := s.subagent("outer", "call-1", "msg-1")
	if err != nil {
		t.Fatal(err)
	}
	inner, err := sub.subagent("inner", "call-2", "msg-2")
	if err != nil {
		t.Fatal(err)
	}
	_ = inner.emit(&agui.TextMessageStart{MessageID: "m"})
	_ = inner.fail(agui.NewError(CodeDepth, "too deep"))
	_ = sub.finish("ok")
	evs := rec.events()
	outer := evs[0].(*agui.SubagentStarted)
	in := evs[1].(*agui.SubagentStarted)
	if outer.ParentToolCallID != "call-1" || outer.ParentMessageID != "msg-1" || in.ParentSubagentRunID != outer.SubagentRunID {
		t.Fatalf("started %+v / %+v", outer, in)
	}
	if got := agui.SubagentOf(evs[2]); got != in.SubagentRunID {
		t.Fatalf("attributed to %q", got)
	}
	if e := evs[3].(*agui.SubagentError); e.SubagentRunID != in.SubagentRunID || e.Code != string(CodeDepth) {
		t.Fatalf("error %+v", e)
	}
	if f := evs[4].(*agui.SubagentFinished); f.SubagentRunID != outer.SubagentRunID || f.Result != "ok" || f.SubagentRunID == "" {
		t.Fatalf("finished %+v", f)
	}
}

// A nil function discards; a failing one reports its error.
func TestFuncSinkDelivery(t *testing.T) {
	if err := newFuncSink(nil).emit(&agui.TextMessageEnd{}); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("gone")
	s := newFuncSink(func(agui.Event) error { return boom })
	if err := s.emit(&agui.TextMessageEnd{}); !errors.Is(err, boom) {
		t.Fatal(err)
	}
	if _, err := s.subagent("x", "", ""); !errors.Is(err, boom) {
		t.Fatal(err)
	}
}
