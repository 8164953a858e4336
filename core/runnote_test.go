package core

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/agui-go/agui"
)

// panicky is an error whose Error method panics.
type panicky struct{}

func (panicky) Error() string { panic("boom") }

// errorDetail keeps every cause an *agui.Error hides from the client,
// never repeats one already in the text, bounds the length and survives
// an error whose Error method panics.
func TestErrorDetail(t *testing.T) {
	cause := errors.New("dial tcp 10.0.0.1:443: connection refused")
	for _, tt := range []struct {
		name string
		err  error
		want string
	}{
		{"plain", errors.New("x"), "x"},
		{"hidden cause", &agui.Error{Code: "PROVIDER_ERROR", Message: "provider failed", Err: cause},
			"provider failed: dial tcp 10.0.0.1:443: connection refused"},
		{"cause already in the text", &agui.Error{Code: agui.CodeAgent, Message: "agent error: x", Err: errors.New("x")}, "agent error: x"},
		{"panicking", panicky{}, "(the error's text could not be read)"},
	} {
		if got := errorDetail(tt.err); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
	long := errorDetail(errors.New(strings.Repeat("é", maxErrorDetail)))
	if len(long) > maxErrorDetail+len("…") || !strings.HasSuffix(long, "…") || !strings.HasPrefix(long, "éé") {
		t.Errorf("long error: %d bytes", len(long))
	}
}

// The note reports only what a run's context carries: no note, nothing
// recorded.
func TestNoteFailureWithoutNote(t *testing.T) {
	noteFailure(context.Background(), errors.New("x")) // no note: nothing happens
	ctx, n := withRunNote(context.Background())
	if n.text() != "" {
		t.Fatal("a fresh note has text")
	}
	noteFailure(ctx, nil)
	noteFailure(ctx, errors.New("first"))
	if n.text() != "first" {
		t.Fatalf("note = %q", n.text())
	}
}
