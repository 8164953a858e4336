package loop

import (
	"errors"
	"testing"

	"github.com/agui-go/agui"
)

func TestPropagate(t *testing.T) {
	if Propagate(nil) != nil {
		t.Fatal("Propagate(nil) != nil")
	}
	base := errors.New("fatal")
	err := Propagate(base)
	if !isPropagating(err) || !errors.Is(err, base) || err.Error() != "fatal" {
		t.Fatalf("%v", err)
	}
	if isPropagating(base) {
		t.Fatal("plain error is propagating")
	}
	// A coded error keeps its code through runError; others get the
	// default.
	depth := Propagate(agui.NewError(CodeDepth, "too deep"))
	if c := runError(CodeTool, depth).Code; c != CodeDepth {
		t.Fatalf("code %s", c)
	}
	if c := runError(CodeTool, err).Code; c != CodeTool {
		t.Fatalf("code %s", c)
	}
}
