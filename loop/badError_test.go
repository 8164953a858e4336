package loop

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"testing"

	"github.com/agui-go/agui"
)

// valueErr has a value receiver: Error through a nil *valueErr
// dereferences nil.
type valueErr struct{ msg string }

func (e valueErr) Error() string { return e.msg }

// panicErr's Error method panics.
type panicErr struct{}

func (panicErr) Error() string { panic("Error() exploded") }

func badErrors() map[string]error {
	return map[string]error{
		"nil *agui.Error":         (*agui.Error)(nil),
		"wrapped nil *agui.Error": fmt.Errorf("wrap: %w", (*agui.Error)(nil)),
		"nil *valueErr":           (*valueErr)(nil),
		"panicking Error":         panicErr{},
		"propagated nil":          Propagate((*valueErr)(nil)),
		"propagated panicking":    Propagate(panicErr{}),
	}
}

// A tool, a hook or a provider returning a typed nil or an error whose
// Error method panics ends the call or the run with a coded error; it
// never panics out of Execute.
func TestBadErrorsNeverPanic(t *testing.T) {
	for name, bad := range badErrors() {
		t.Run("tool "+name, func(t *testing.T) {
			tool, err := NewTool("echo", "fails", func(ctx context.Context, in workArgs) (string, error) { return "", bad })
			if err != nil {
				t.Fatal(err)
			}
			a := mustNew(t, Script(Turn{Calls: echoCalls("c1")}, Turn{Text: "ok"}), WithTools(tool))
			res, err := a.Execute(t.Context(), user("go"))
			if err != nil {
				if agui.CodeOf(err) == "" || agui.ErrorText(err) == "" {
					t.Fatalf("error %v has no code", err)
				}
				return
			}
			if kinds := errorKinds(res.Messages); kinds["c1"] != KindExecution {
				t.Fatalf("error kinds %v, want c1 execution", kinds)
			}
		})
		t.Run("hook "+name, func(t *testing.T) {
			a := mustNew(t, Script(Turn{Calls: echoCalls("c1")}, Turn{Text: "ok"}), WithTools(echoTool(t)),
				WithPreToolCall(func(ctx context.Context, c Call) error { return bad }))
			_, err := a.Execute(t.Context(), user("go"))
			if agui.CodeOf(err) != CodeTool {
				t.Fatalf("error %q code %s, want %s", agui.ErrorText(err), agui.CodeOf(err), CodeTool)
			}
		})
		t.Run("provider "+name, func(t *testing.T) {
			a := mustNew(t, failing{bad})
			_, err := a.Execute(t.Context(), user("go"))
			if c := agui.CodeOf(err); c == "" {
				t.Fatalf("error %q has no code", agui.ErrorText(err))
			}
		})
	}
}

// failing is a provider whose every stream fails with err.
type failing struct{ err error }

func (f failing) Stream(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
	return func(yield func(Delta, error) bool) { yield(Delta{}, f.err) }
}

var _ = errors.New
