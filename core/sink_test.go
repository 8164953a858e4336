package core

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agui-go/agui"
)

// panicking panics in the method named by where, after passing on a few
// events when it panics in Transform.
type panicking struct {
	where string
	n     int
}

func (p *panicking) Transform(ev agui.Event, emit func(agui.Event) error) error {
	if p.n++; p.where == "Transform" && p.n == 5 {
		panic("transformer bug")
	}
	return emit(ev)
}

func (p *panicking) Finish(func(agui.Event) error) error {
	if p.where == "Finish" {
		panic("transformer bug")
	}
	return nil
}

// A panic in a transformer runs on the consumer's goroutine, where nothing
// else would recover it: the runner turns it into a TRANSFORM_ERROR, logs
// the stack and still joins the agent.
func TestTransformerPanicEndsRun(t *testing.T) {
	for _, where := range []string{"Transform", "Finish", "TransformerFactory"} {
		t.Run(where, func(t *testing.T) {
			var log bytes.Buffer
			var returned atomic.Bool
			agent := loopingAgent(&returned)
			factory := func(*agui.RunAgentInput) Transformer {
				if where == "TransformerFactory" {
					panic("transformer bug")
				}
				return &panicking{where: where}
			}
			if where == "Finish" {
				agent = func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
					defer returned.Store(true)
					return agui.Success(), rc.Say("hi")
				}
			}
			evs := run(t, agent, WithTransformers(factory), WithLogger(slog.New(slog.NewTextHandler(&log, nil))))
			e := last[*agui.RunError](t, evs)
			if e.Code != string(agui.CodeTransform) || !strings.Contains(e.Message, "panicked") {
				t.Errorf("RUN_ERROR = %+v, want TRANSFORM_ERROR for a panic", e)
			}
			if evs[0].Type() != agui.TypeRunStarted {
				t.Errorf("stream starts with %s", evs[0].Type())
			}
			if where != "TransformerFactory" && !returned.Load() {
				t.Error("the stream ended before the agent returned")
			}
			for _, want := range []string{"transformer panicked", "transformer bug", "method=" + where, "sink_test.go"} {
				if !strings.Contains(log.String(), want) {
					t.Errorf("log lacks %q:\n%s", want, log.String())
				}
			}
		})
	}
}

// A panic in the consumer's loop body is the consumer's: the chain does
// not swallow it, and the agent is still joined (goleak checks).
func TestConsumerPanicPassesThroughChain(t *testing.T) {
	var returned atomic.Bool
	defer func() {
		if p := recover(); p != "consumer bug" {
			t.Errorf("recovered %v, want the consumer's panic", p)
		}
		if !returned.Load() {
			t.Error("the agent was not joined")
		}
	}()
	for ev := range Run[NoState](context.Background(), loopingAgent(&returned), agui.NewInput("t", "r"), WithTransformers(upper())) {
		if ev.Type() == agui.TypeTextMessageContent {
			panic("consumer bug")
		}
	}
}

// ending records how one transformer saw the run end.
type ending struct {
	finishes  int
	terminals []agui.Event
}

func (e *ending) Transform(ev agui.Event, emit func(agui.Event) error) error {
	if isTerminal(ev) {
		e.terminals = append(e.terminals, ev)
	}
	return emit(ev)
}

func (e *ending) Finish(func(agui.Event) error) error { e.finishes++; return nil }

func (e *ending) factory() TransformerFactory {
	return func(*agui.RunAgentInput) Transformer { return e }
}

// When a transformer fails, the final RUN_ERROR still goes through the
// transformers after it (which see events later), finishing them once,
// and bypasses it and those before it.
func TestRunErrorPassesTransformersAfterFailure(t *testing.T) {
	say := func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		return agui.Success(), rc.Say("hi")
	}
	failOn := func(typ agui.EventType, err error) TransformerFactory {
		return Stateless(TransformerFunc(func(ev agui.Event, emit func(agui.Event) error) error {
			if ev.Type() == typ {
				return err
			}
			return emit(ev)
		}))
	}
	failFinish := func(*agui.RunAgentInput) Transformer { return finishFails{} }
	panicFinish := func(*agui.RunAgentInput) Transformer { return &panicking{where: "Finish"} }
	cases := map[string]TransformerFactory{
		"Transform":          failOn(agui.TypeTextMessageContent, errors.New("boom")),
		"Transform terminal": failOn(agui.TypeRunFinished, errors.New("boom")),
		"Finish":             failFinish,
		"Finish panic":       panicFinish,
	}
	for name, failing := range cases {
		t.Run(name, func(t *testing.T) {
			inner, outer := &ending{}, &ending{}
			evs := run(t, say, WithTransformers(inner.factory(), failing, outer.factory(), upper()),
				WithLogger(slog.New(slog.DiscardHandler)))
			e := last[*agui.RunError](t, evs)
			if e.Code != string(agui.CodeTransform) {
				t.Errorf("RUN_ERROR = %+v", e)
			}
			if outer.finishes != 1 || len(outer.terminals) != 1 || outer.terminals[0] != agui.Event(e) {
				t.Errorf("the transformer after the failed one: %d Finish, terminals %v; want 1 and the RUN_ERROR", outer.finishes, outer.terminals)
			}
			if n := len(inner.terminals); n != 0 && inner.terminals[0].Type() != agui.TypeRunFinished {
				t.Errorf("the transformer before the failed one saw %v", inner.terminals)
			}
		})
	}
}

// A consumer that stops reading gets nothing more, but every transformer
// is still finished and sees the run end, with DISCONNECTED.
func TestTransformersSeeConsumerLeave(t *testing.T) {
	var returned atomic.Bool
	inner, outer := &ending{}, &ending{}
	for ev := range Run[NoState](context.Background(), loopingAgent(&returned), agui.NewInput("t", "r"),
		WithTransformers(inner.factory(), upper(), outer.factory())) {
		if ev.Type() == agui.TypeTextMessageContent {
			break
		}
	}
	if !returned.Load() {
		t.Fatal("the loop ended before the agent returned")
	}
	for name, e := range map[string]*ending{"inner": inner, "outer": outer} {
		if e.finishes != 1 || len(e.terminals) != 1 {
			t.Fatalf("%s: %d Finish, terminals %v; want 1 and a RUN_ERROR", name, e.finishes, e.terminals)
		}
		if re, ok := e.terminals[0].(*agui.RunError); !ok || re.Code != string(agui.CodeDisconnected) {
			t.Errorf("%s saw %#v, want RUN_ERROR DISCONNECTED", name, e.terminals[0])
		}
	}
}
