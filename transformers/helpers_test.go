package transformers

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// This file drives transformers the way the runner does, for the tests.

// runChain passes events through a chain built from factories for in,
// finishing the chain just before the terminal event as the runner does,
// and returns what leaves it. Every output stream must pass the verifier.
func runChain(t *testing.T, in *agui.RunAgentInput, events []agui.Event, factories ...core.TransformerFactory) []agui.Event {
	t.Helper()
	out, err := pass(in, events, factories...)
	if err != nil {
		t.Fatalf("chain failed: %v", err)
	}
	verify(t, out)
	return out
}

// pass is runChain without the checks, for tests expecting an error.
func pass(in *agui.RunAgentInput, events []agui.Event, factories ...core.TransformerFactory) ([]agui.Event, error) {
	chain := make(chain, len(factories))
	for i, f := range factories {
		chain[i] = f(in)
	}
	var out []agui.Event
	collect := func(ev agui.Event) error {
		out = append(out, ev)
		return nil
	}
	for _, ev := range events {
		if isTerminal(ev) {
			if err := chain.Finish(collect); err != nil {
				return out, err
			}
		}
		if err := chain.Transform(ev, collect); err != nil {
			return out, err
		}
	}
	return out, nil
}

// chain passes events through its transformers in order, finishing them
// in order too, each one's output going through the rest: what the runner
// does with a run's transformers, without its guards.
type chain []core.Transformer

func (c chain) Transform(ev agui.Event, emit func(agui.Event) error) error {
	return c.from(0, emit)(ev)
}

func (c chain) Finish(emit func(agui.Event) error) error {
	for i, t := range c {
		if err := t.Finish(c.from(i+1, emit)); err != nil {
			return err
		}
	}
	return nil
}

// from returns the emit function feeding element i and what follows.
func (c chain) from(i int, emit func(agui.Event) error) func(agui.Event) error {
	if i == len(c) {
		return emit
	}
	next, t := c.from(i+1, emit), c[i]
	return func(ev agui.Event) error { return t.Transform(ev, next) }
}

func isTerminal(ev agui.Event) bool {
	t := ev.Type()
	return t == agui.TypeRunFinished || t == agui.TypeRunError
}

// verify fails t unless the verifier accepts every event of out.
func verify(t *testing.T, out []agui.Event) {
	t.Helper()
	v := agui.NewVerifier()
	for i, ev := range out {
		if err := v.Observe(ev); err != nil {
			t.Fatalf("verifier rejected event %d (%s): %v\nstream:\n%s", i, describe(ev), err, describeAll(out))
		}
	}
}

// describe renders an event as its type, main id and tag, such as
// "TOOL_CALL_START t1 @s1".
func describe(ev agui.Event) string {
	var b strings.Builder
	b.WriteString(string(ev.Type()))
	for _, a := range eventAttrs(ev)[1:] {
		switch a.Key {
		case "message_id", "tool_call_id", "step_name", "subagent_run_id", "entity_id", "outcome", "code":
			fmt.Fprintf(&b, " %s", a.Value.String())
		case "subagent":
			fmt.Fprintf(&b, " @%s", a.Value.String())
		}
	}
	return b.String()
}

func describeAll(evs []agui.Event) string {
	var b strings.Builder
	for _, ev := range evs {
		b.WriteString(describe(ev))
		b.WriteByte('\n')
	}
	return b.String()
}

// describeList renders events one description each, for comparisons.
func describeList(evs []agui.Event) []string {
	out := make([]string, len(evs))
	for i, ev := range evs {
		out[i] = describe(ev)
	}
	return out
}

// tagged attributes ev to subagent id.
func tagged[E agui.Attributed](id string, ev E) E {
	ev.SetSubagent(id)
	return ev
}

func input() *agui.RunAgentInput { return agui.NewInput("thread-1", "run-1") }

func started() agui.Event {
	return &agui.RunStarted{ThreadID: "thread-1", RunID: "run-1", ProtocolVersion: agui.ProtocolVersion}
}
func finished() agui.Event { return &agui.RunFinished{ThreadID: "thread-1", RunID: "run-1"} }

// call returns the START/ARGS/END/RESULT events of one whole tool call.
func call(id, name, args, result string) []agui.Event {
	return []agui.Event{
		&agui.ToolCallStart{ToolCallID: id, ToolCallName: name},
		&agui.ToolCallArgs{ToolCallID: id, Delta: args},
		&agui.ToolCallEnd{ToolCallID: id},
		&agui.ToolCallResult{MessageID: "r-" + id, ToolCallID: id, Content: agui.TextContent(result)},
	}
}

// stream joins event lists.
func stream(parts ...[]agui.Event) []agui.Event {
	var out []agui.Event
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func evs(e ...agui.Event) []agui.Event { return e }

func sameList(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events:\n got:\n  %s\n want:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// doc decodes test JSON into its decoded-JSON form.
func doc(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad test JSON %s: %v", s, err)
	}
	return v
}
