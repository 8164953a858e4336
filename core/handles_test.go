package core

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/agui-go/agui"
)

func TestEndIsIdempotent(t *testing.T) {
	evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		m, err := rc.Message()
		if err != nil {
			return agui.Outcome{}, err
		}
		s, err := rc.Step("s")
		if err != nil {
			return agui.Outcome{}, err
		}
		r, err := rc.Reasoning()
		if err != nil {
			return agui.Outcome{}, err
		}
		tc, err := rc.ToolCall("search")
		if err != nil {
			return agui.Outcome{}, err
		}
		for range 3 {
			for _, end := range []func() error{tc.End, r.End, s.End, m.End} {
				if err := end(); err != nil {
					return agui.Outcome{}, err
				}
			}
		}
		return agui.Success(), nil
	})
	equalTypes(t, evs, agui.TypeRunStarted,
		agui.TypeTextMessageStart, agui.TypeStepStarted, agui.TypeReasoningStart, agui.TypeReasoningMessageStart, agui.TypeToolCallStart,
		agui.TypeToolCallEnd, agui.TypeReasoningMessageEnd, agui.TypeReasoningEnd, agui.TypeStepFinished, agui.TypeTextMessageEnd,
		agui.TypeRunFinished)
}

func TestToolCall(t *testing.T) {
	evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		m, err := rc.Message()
		if err != nil {
			return agui.Outcome{}, err
		}
		tc, err := rc.ToolCall("search", WithToolCallID("call-model-1"), WithParentMessage(m.ID()))
		if err != nil {
			return agui.Outcome{}, err
		}
		if tc.ID() != "call-model-1" || tc.Name() != "search" {
			return agui.Outcome{}, fmt.Errorf("handle %q %q", tc.ID(), tc.Name())
		}
		for _, part := range []string{`{"q":`, `"go"}`} {
			if err := tc.Args(part); err != nil {
				return agui.Outcome{}, err
			}
		}
		// Result ends the arguments first.
		if err := tc.ResultText("42 results"); err != nil {
			return agui.Outcome{}, err
		}
		frontend, err := rc.ToolCall("confirm")
		if err != nil {
			return agui.Outcome{}, err
		}
		if err := frontend.End(); err != nil {
			return agui.Outcome{}, err
		}
		return agui.Success(frontend.ID()), m.End()
	})
	equalTypes(t, evs, agui.TypeRunStarted, agui.TypeTextMessageStart,
		agui.TypeToolCallStart, agui.TypeToolCallArgs, agui.TypeToolCallArgs, agui.TypeToolCallEnd, agui.TypeToolCallResult,
		agui.TypeToolCallStart, agui.TypeToolCallEnd, agui.TypeTextMessageEnd, agui.TypeRunFinished)
	msg := evs[1].(*agui.TextMessageStart).MessageID
	if s := evs[2].(*agui.ToolCallStart); s.ToolCallID != "call-model-1" || s.ToolCallName != "search" || s.ParentMessageID != msg {
		t.Errorf("TOOL_CALL_START = %+v", s)
	}
	res := evs[6].(*agui.ToolCallResult)
	if res.ToolCallID != "call-model-1" || res.Content.Text != "42 results" || res.Role != agui.RoleTool || !strings.HasPrefix(res.MessageID, "result-") {
		t.Errorf("TOOL_CALL_RESULT = %+v", res)
	}
	pending := evs[7].(*agui.ToolCallStart).ToolCallID
	if o := last[*agui.RunFinished](t, evs).Outcome; len(o.PendingToolCallIDs) != 1 || o.PendingToolCallIDs[0] != pending {
		t.Errorf("outcome = %+v", o)
	}
}

func TestSubagentTerminators(t *testing.T) {
	evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		a, err := rc.Subagent("a", WithDescription("does a"), WithParentToolCall("call-1"), WithParentMessage("msg-1"))
		if err != nil {
			return agui.Outcome{}, err
		}
		if err := a.Finish("done"); err != nil {
			return agui.Outcome{}, err
		}
		// Only the first terminator counts.
		if err := a.Fail(errors.New("late")); err != nil {
			return agui.Outcome{}, err
		}
		b, err := rc.Subagent("b")
		if err != nil {
			return agui.Outcome{}, err
		}
		if err := b.Suspend("i1", "i2"); err != nil {
			return agui.Outcome{}, err
		}
		c, err := rc.Subagent("c")
		if err != nil {
			return agui.Outcome{}, err
		}
		if err := c.Fail(errors.New("tool broke")); err != nil {
			return agui.Outcome{}, err
		}
		d, err := rc.Subagent("d")
		if err != nil {
			return agui.Outcome{}, err
		}
		return agui.Success(), d.Fail(agui.NewError(agui.CodeSerialization, "bad args"))
	})
	equalTypes(t, evs, agui.TypeRunStarted,
		agui.TypeSubagentStarted, agui.TypeSubagentFinished,
		agui.TypeSubagentStarted, agui.TypeSubagentFinished,
		agui.TypeSubagentStarted, agui.TypeSubagentError,
		agui.TypeSubagentStarted, agui.TypeSubagentError,
		agui.TypeRunFinished)
	a := evs[1].(*agui.SubagentStarted)
	if a.Name != "a" || a.Description != "does a" || a.ParentToolCallID != "call-1" || a.ParentMessageID != "msg-1" ||
		a.ParentSubagentRunID != "" || !strings.HasPrefix(a.SubagentRunID, "sub-") {
		t.Errorf("SUBAGENT_STARTED = %+v", a)
	}
	if f := evs[2].(*agui.SubagentFinished); f.SubagentRunID != a.SubagentRunID || f.Result != "done" || f.Outcome != nil {
		t.Errorf("SUBAGENT_FINISHED = %+v", f)
	}
	if f := evs[4].(*agui.SubagentFinished); f.Outcome == nil || f.Outcome.Type != "suspended" || fmt.Sprint(f.Outcome.InterruptIDs) != "[i1 i2]" {
		t.Errorf("suspended SUBAGENT_FINISHED = %+v", f)
	}
	if e := evs[6].(*agui.SubagentError); e.Message != "agent error: tool broke" || e.Code != string(agui.CodeAgent) {
		t.Errorf("SUBAGENT_ERROR = %+v", e)
	}
	if e := evs[8].(*agui.SubagentError); e.Message != "bad args" || e.Code != string(agui.CodeSerialization) {
		t.Errorf("SUBAGENT_ERROR = %+v", e)
	}
}

// Nesting is the same code path at every depth, and each level names its
// parent.
func TestSubagentNestingDepth(t *testing.T) {
	const depth = 5
	evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		e := rc.Emitter
		for i := range depth {
			sub, err := e.Subagent(fmt.Sprint("level", i))
			if err != nil {
				return agui.Outcome{}, err
			}
			if err := sub.Say(fmt.Sprint("at ", i)); err != nil {
				return agui.Outcome{}, err
			}
			e = sub.Emitter
		}
		return agui.Success(), nil // the runner finishes all five, innermost first
	})
	var ids []string
	parent := ""
	for _, ev := range evs {
		switch ev := ev.(type) {
		case *agui.SubagentStarted:
			if ev.ParentSubagentRunID != parent {
				t.Errorf("%s: parent %q, want %q", ev.Name, ev.ParentSubagentRunID, parent)
			}
			parent = ev.SubagentRunID
			ids = append(ids, ev.SubagentRunID)
		case *agui.TextMessageContent:
			if ev.SubagentRunID != parent {
				t.Errorf("content %q tagged %q, want %q", ev.Delta, ev.SubagentRunID, parent)
			}
		}
	}
	var finished []string
	for _, ev := range evs {
		if f, ok := ev.(*agui.SubagentFinished); ok {
			finished = append(finished, f.SubagentRunID)
		}
	}
	if len(ids) != depth || len(finished) != depth {
		t.Fatalf("started %d, finished %d", len(ids), len(finished))
	}
	for i := range depth {
		if finished[i] != ids[depth-1-i] {
			t.Fatalf("finish order %v, want innermost first of %v", finished, ids)
		}
	}
}

// When the agent returns, whatever is open is closed innermost first,
// within a subagent before the subagent, and before RUN_FINISHED.
func TestAutoCloseInnermostFirst(t *testing.T) {
	evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		if _, err := rc.Step("outer"); err != nil {
			return agui.Outcome{}, err
		}
		sub, err := rc.Subagent("helper")
		if err != nil {
			return agui.Outcome{}, err
		}
		if _, err := sub.Step("inner"); err != nil {
			return agui.Outcome{}, err
		}
		if _, err := sub.Message(); err != nil {
			return agui.Outcome{}, err
		}
		if _, err := rc.Reasoning(); err != nil {
			return agui.Outcome{}, err
		}
		if _, err := rc.ToolCall("t"); err != nil {
			return agui.Outcome{}, err
		}
		if _, err := rc.Message(); err != nil {
			return agui.Outcome{}, err
		}
		return agui.Success(), nil
	})
	equalTypes(t, evs, agui.TypeRunStarted,
		agui.TypeStepStarted, agui.TypeSubagentStarted, agui.TypeStepStarted, agui.TypeTextMessageStart,
		agui.TypeReasoningStart, agui.TypeReasoningMessageStart, agui.TypeToolCallStart, agui.TypeTextMessageStart,
		// closing, innermost first
		agui.TypeTextMessageEnd, agui.TypeToolCallEnd, agui.TypeReasoningMessageEnd, agui.TypeReasoningEnd,
		agui.TypeTextMessageEnd, agui.TypeStepFinished, agui.TypeSubagentFinished, agui.TypeStepFinished,
		agui.TypeRunFinished)
	sub := evs[2].(*agui.SubagentStarted).SubagentRunID
	if m := evs[13].(*agui.TextMessageEnd); m.SubagentRunID != sub || m.MessageID != evs[4].(*agui.TextMessageStart).MessageID {
		t.Errorf("the subagent's message closed as %+v", m)
	}
	if s := evs[14].(*agui.StepFinished); s.SubagentRunID != sub || s.StepName != "inner" {
		t.Errorf("the subagent's step closed as %+v", s)
	}
	if s := evs[16].(*agui.StepFinished); s.SubagentRunID != "" || s.StepName != "outer" {
		t.Errorf("the parent's step closed as %+v", s)
	}
}

// A subagent's terminator closes what is still open inside it first.
func TestSubagentFinishClosesItsOwn(t *testing.T) {
	evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		parentMsg, err := rc.Message()
		if err != nil {
			return agui.Outcome{}, err
		}
		sub, err := rc.Subagent("helper")
		if err != nil {
			return agui.Outcome{}, err
		}
		nested, err := sub.Subagent("nested")
		if err != nil {
			return agui.Outcome{}, err
		}
		if _, err := nested.Message(); err != nil {
			return agui.Outcome{}, err
		}
		if _, err := sub.ToolCall("t"); err != nil {
			return agui.Outcome{}, err
		}
		if err := sub.Finish(nil); err != nil {
			return agui.Outcome{}, err
		}
		return agui.Success(), parentMsg.Delta("still open")
	})
	equalTypes(t, evs, agui.TypeRunStarted,
		agui.TypeTextMessageStart, agui.TypeSubagentStarted, agui.TypeSubagentStarted, agui.TypeTextMessageStart, agui.TypeToolCallStart,
		agui.TypeToolCallEnd, agui.TypeTextMessageEnd, agui.TypeSubagentFinished, agui.TypeSubagentFinished,
		agui.TypeTextMessageContent, agui.TypeTextMessageEnd, agui.TypeRunFinished)
}

// Nothing is closed before RUN_ERROR: the protocol does not need it, and a
// failed run may not be able to.
func TestNoAutoCloseOnError(t *testing.T) {
	evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		if _, err := rc.Message(); err != nil {
			return agui.Outcome{}, err
		}
		return agui.Outcome{}, errors.New("failed mid-message")
	})
	equalTypes(t, evs, agui.TypeRunStarted, agui.TypeTextMessageStart, agui.TypeRunError)
}

// Tool calls run in parallel: 50 goroutines stream through their own
// handles at once. The race detector checks the handles; the stream shows
// each call's events in the order its goroutine emitted them.
func TestConcurrentToolCalls(t *testing.T) {
	const calls, parts = 50, 10
	evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		var wg sync.WaitGroup
		errs := make(chan error, calls)
		for i := range calls {
			wg.Go(func() {
				tc, err := rc.ToolCall(fmt.Sprint("tool", i))
				if err != nil {
					errs <- err
					return
				}
				for p := range parts {
					if err := tc.Args(fmt.Sprint(p)); err != nil {
						errs <- err
						return
					}
				}
				if err := tc.ResultText("ok"); err != nil {
					errs <- err
				}
			})
		}
		wg.Wait()
		close(errs)
		return agui.Success(), <-errs
	})
	last[*agui.RunFinished](t, evs)
	next := map[string]int{} // per call: 0 start, 1..parts args, parts+1 end, parts+2 result
	for _, ev := range evs {
		var id string
		var step int
		switch ev := ev.(type) {
		case *agui.ToolCallStart:
			id, step = ev.ToolCallID, 0
		case *agui.ToolCallArgs:
			id, step = ev.ToolCallID, 1+int(ev.Delta[0]-'0')
		case *agui.ToolCallEnd:
			id, step = ev.ToolCallID, parts+1
		case *agui.ToolCallResult:
			id, step = ev.ToolCallID, parts+2
		default:
			continue
		}
		if next[id] != step {
			t.Fatalf("call %s: got step %d, want %d", id, step, next[id])
		}
		next[id]++
	}
	if len(next) != calls {
		t.Fatalf("%d calls, want %d", len(next), calls)
	}
	for id, n := range next {
		if n != parts+3 {
			t.Errorf("call %s: %d events", id, n)
		}
	}
}
