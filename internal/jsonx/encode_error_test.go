package jsonx

import (
	"errors"
	"strings"
	"testing"
)

func TestEncodeErrorPath(t *testing.T) {
	cause := errors.New("unsupported number NaN")
	// Built on the way out: innermost first.
	err := At("input", At("messages", AtIndex(2, At("content", AtIndex(0, cause)))))
	if got, want := err.Error(), "input.messages[2].content[0]: unsupported number NaN"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if !errors.Is(err, cause) {
		t.Error("the error does not unwrap to its cause")
	}
	if got := AtIndex(1, cause).Error(); got != "[1]: unsupported number NaN" {
		t.Errorf("an index at the root: %q", got)
	}
}

func TestEncodeErrorPathIsCutShort(t *testing.T) {
	err := errors.New("too deep")
	for range 1000 {
		err = At("self", err)
	}
	got := err.Error()
	if want := strings.Repeat(".self", maxPathSegments)[1:] + "…: too deep"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
