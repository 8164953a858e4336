package agui_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/agui-go/agui"
)

type valueErr struct{ msg string }

func (e valueErr) Error() string { return e.msg }

type panicErr struct{}

func (panicErr) Error() string { panic("boom") }

func TestErrorTextNeverPanics(t *testing.T) {
	cases := map[string]struct {
		err  error
		want string
	}{
		"nil":              {nil, ""},
		"plain":            {errors.New("x"), "x"},
		"nil *Error":       {(*agui.Error)(nil), "agui: nil *Error"},
		"nil value method": {(*valueErr)(nil), "error (a nil *agui_test.valueErr)"},
		"panicking":        {panicErr{}, "error (the Error method of agui_test.panicErr panicked)"},
		"wrapped panic":    {fmt.Errorf("w: %w", panicErr{}), "w: %!v(PANIC=Error method: boom)"},
	}
	for name, c := range cases {
		if got := agui.ErrorText(c.err); got != c.want {
			t.Errorf("%s: %q, want %q", name, got, c.want)
		}
	}
}

// A nil *Error inside a non-nil error has a code and a message and
// matches no sentinel, instead of panicking.
func TestNilErrorMethods(t *testing.T) {
	var e *agui.Error
	var err error = e
	if agui.CodeOf(err) != agui.CodeAgent || errors.Is(err, agui.ErrCancelled) || e.Unwrap() != nil {
		t.Fatal("nil *Error misbehaves")
	}
	if got := agui.AgentError(fmt.Errorf("w: %w", err)); got == nil || !strings.HasPrefix(got.Message, "agent error: w: ") {
		t.Fatalf("AgentError = %v", got)
	}
}

func ExampleErrorText() {
	var typedNil *agui.Error // a nil *Error inside a non-nil error
	fmt.Println(agui.ErrorText(typedNil))
	fmt.Println(agui.ErrorText(errors.New("plain")))
	// Output:
	// agui: nil *Error
	// plain
}
