package core

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agui-go/agui"
)

// recorder is a per-run transformer that records what it saw and, in
// Finish, emits a CUSTOM event naming how many events passed.
type recorder struct {
	seen []agui.EventType
}

func (r *recorder) Transform(ev agui.Event, emit func(agui.Event) error) error {
	r.seen = append(r.seen, ev.Type())
	return emit(ev)
}

func (r *recorder) Finish(emit func(agui.Event) error) error {
	return emit(&agui.Custom{Name: "recorded", Value: len(r.seen)})
}

func upper() TransformerFactory {
	return Stateless(TransformerFunc(func(ev agui.Event, emit func(agui.Event) error) error {
		if c, ok := ev.(*agui.TextMessageContent); ok {
			c.Delta = strings.ToUpper(c.Delta)
		}
		return emit(ev)
	}))
}

// loopingAgent says "again" until an emit fails, recording that it
// returned.
func loopingAgent(returned *atomic.Bool) AgentFunc[NoState] {
	return func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		defer returned.Store(true)
		for {
			if err := rc.Say("again"); err != nil {
				return agui.Outcome{}, err
			}
		}
	}
}

func TestTransformersPerRunInOrder(t *testing.T) {
	var built atomic.Int32
	var recorders []*recorder
	factory := func(in *agui.RunAgentInput) Transformer {
		built.Add(1)
		r := &recorder{}
		recorders = append(recorders, r)
		return r
	}
	say := func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		return agui.Success(), rc.Say("hi")
	}
	for range 2 {
		none := func(*agui.RunAgentInput) Transformer { return nil }
		evs := run(t, say, WithTransformers(nil, upper(), none, factory))
		equalTypes(t, evs, agui.TypeRunStarted, agui.TypeTextMessageStart, agui.TypeTextMessageContent, agui.TypeTextMessageEnd, agui.TypeCustom, agui.TypeRunFinished)
		if d := evs[2].(*agui.TextMessageContent).Delta; d != "HI" {
			t.Errorf("delta %q: the chain did not run in order", d)
		}
		if v := evs[4].(*agui.Custom).Value; v != 4 {
			t.Errorf("Finish saw %v events before the terminal, want 4", v)
		}
	}
	if built.Load() != 2 || len(recorders) != 2 || recorders[0] == recorders[1] {
		t.Fatalf("built %d transformers for 2 runs", built.Load())
	}
	if got := recorders[0].seen[len(recorders[0].seen)-1]; got != agui.TypeRunFinished {
		t.Errorf("the transformer's last event was %s, want RUN_FINISHED", got)
	}
}

func TestTransformerErrorEndsRun(t *testing.T) {
	cases := []struct {
		err     error
		code    agui.Code
		message string
	}{
		{errors.New("boom"), agui.CodeTransform, "transformer error: boom"},
		{agui.NewError(agui.CodeSerialization, "too big"), agui.CodeSerialization, "too big"},
	}
	for _, c := range cases {
		var returned atomic.Bool
		n := 0
		failing := Stateless(TransformerFunc(func(ev agui.Event, emit func(agui.Event) error) error {
			if n++; n == 10 {
				return c.err
			}
			return emit(ev)
		}))
		evs := run(t, loopingAgent(&returned), WithTransformers(failing))
		if !returned.Load() {
			t.Fatal("the stream ended before the agent returned")
		}
		e := last[*agui.RunError](t, evs)
		if e.Code != string(c.code) || e.Message != c.message {
			t.Errorf("RUN_ERROR = %+v, want %s %q", e, c.code, c.message)
		}
		if len(evs) != 10 {
			t.Errorf("%d events, want 9 passed and RUN_ERROR", len(evs))
		}
	}
}

func TestTransformerFinishError(t *testing.T) {
	failing := func(*agui.RunAgentInput) Transformer { return finishFails{} }
	evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) { return agui.Success(), nil },
		WithTransformers(failing))
	equalTypes(t, evs, agui.TypeRunStarted, agui.TypeRunError)
	if e := last[*agui.RunError](t, evs); e.Code != string(agui.CodeTransform) {
		t.Errorf("RUN_ERROR = %+v", e)
	}
}

type finishFails struct{}

func (finishFails) Transform(ev agui.Event, emit func(agui.Event) error) error { return emit(ev) }
func (finishFails) Finish(func(agui.Event) error) error                        { return errors.New("flush failed") }

func TestTransformerDropsTerminal(t *testing.T) {
	drop := Stateless(TransformerFunc(func(ev agui.Event, emit func(agui.Event) error) error {
		if ev.Type() == agui.TypeRunFinished {
			return nil
		}
		return emit(ev)
	}))
	evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) { return agui.Success(), nil },
		WithTransformers(drop))
	equalTypes(t, evs, agui.TypeRunStarted, agui.TypeRunError)
	if e := last[*agui.RunError](t, evs); e.Code != string(agui.CodeTransform) {
		t.Errorf("RUN_ERROR = %+v", e)
	}
}

// A transformer that ends the stream itself stops the agent; nothing
// follows its terminal event.
func TestTransformerEndsStreamEarly(t *testing.T) {
	var returned atomic.Bool
	abort := Stateless(TransformerFunc(func(ev agui.Event, emit func(agui.Event) error) error {
		if ev.Type() == agui.TypeTextMessageContent {
			return emit(&agui.RunError{Message: "policy", Code: "POLICY"})
		}
		return emit(ev)
	}))
	evs := run(t, loopingAgent(&returned), WithTransformers(abort))
	if !returned.Load() {
		t.Fatal("the stream ended before the agent returned")
	}
	equalTypes(t, evs, agui.TypeRunStarted, agui.TypeTextMessageStart, agui.TypeRunError)
	if e := last[*agui.RunError](t, evs); e.Code != "POLICY" {
		t.Errorf("RUN_ERROR = %+v", e)
	}
}

// Breaking out of the loop mid-chain still joins the agent.
func TestBreakWithTransformers(t *testing.T) {
	var returned atomic.Bool
	r, err := NewRunner[NoState](loopingAgent(&returned), agui.NewInput("t", "r"), WithTransformers(upper()))
	if err != nil {
		t.Fatal(err)
	}
	for ev := range r.Events(context.Background()) {
		if ev.Type() == agui.TypeTextMessageContent {
			break
		}
	}
	if !returned.Load() {
		t.Fatal("the loop ended before the agent returned")
	}
}
