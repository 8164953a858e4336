package core

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/agui-go/agui"
)

// valueErr has a value receiver: calling Error through a nil *valueErr
// dereferences nil.
type valueErr struct{ msg string }

func (e valueErr) Error() string { return e.msg }

// panicErr's Error method panics.
type panicErr struct{}

func (panicErr) Error() string { panic("Error() exploded") }

// badErrors are errors whose formatting crashed the process before: typed
// nils inside a non-nil error and an Error method that panics.
func badErrors() map[string]error {
	return map[string]error{
		"nil *agui.Error":          (*agui.Error)(nil),
		"wrapped nil *agui.Error":  fmt.Errorf("wrap: %w", (*agui.Error)(nil)),
		"nil *valueErr":            (*valueErr)(nil),
		"panicking Error":          panicErr{},
		"wrapped panicking Error":  &agui.Error{Code: agui.CodeAgent, Message: "m", Err: panicErr{}},
		"joined nil and panicking": errors.Join((*valueErr)(nil), panicErr{}),
	}
}

func TestRunAgentBadErrorsEndWithCodedRunError(t *testing.T) {
	for name, bad := range badErrors() {
		t.Run(name, func(t *testing.T) {
			evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) { return agui.Success(), bad })
			e := last[*agui.RunError](t, evs)
			if e.Code == "" || e.Message == "" {
				t.Errorf("RUN_ERROR = %+v, want a code and a message", e)
			}
		})
	}
}

func TestTransformerBadErrorsEndWithCodedRunError(t *testing.T) {
	for name, bad := range badErrors() {
		t.Run(name, func(t *testing.T) {
			failing := Stateless(TransformerFunc(func(ev agui.Event, emit func(agui.Event) error) error {
				if ev.Type() == agui.TypeTextMessageContent {
					return bad
				}
				return emit(ev)
			}))
			evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
				return agui.Success(), rc.Say("hi")
			}, WithTransformers(failing))
			e := last[*agui.RunError](t, evs)
			if e.Code == "" || e.Message == "" {
				t.Errorf("RUN_ERROR = %+v, want a code and a message", e)
			}
		})
	}
}

func TestSubagentFailBadErrors(t *testing.T) {
	for name, bad := range badErrors() {
		t.Run(name, func(t *testing.T) {
			evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
				sub, err := rc.Subagent("helper")
				if err != nil {
					return agui.Outcome{}, err
				}
				return agui.Success(), sub.Fail(bad)
			})
			last[*agui.RunFinished](t, evs)
			for _, ev := range evs {
				if se, ok := ev.(*agui.SubagentError); ok && (se.Code == "" || se.Message == "") {
					t.Errorf("SUBAGENT_ERROR = %+v, want a code and a message", se)
				}
			}
		})
	}
}
