package anthropic

import (
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/agui-go/agui/loop"
)

// WithClientOptions calls add up, and option.WithMaxRetries among them
// overrides the default of no client retries.
func TestWithClientOptionsAddUp(t *testing.T) {
	s := newServer(t, status(503, "overloaded_error"), status(503, "overloaded_error"))
	p := newProvider(t, s, WithClientOptions(option.WithMaxRetries(1)))
	if _, err := collect(t, p, loop.ModelRequest{}); err == nil {
		t.Fatal("no error from a failing server")
	}
	if n := len(s.requests()); n != 2 {
		t.Fatalf("%d requests, want 2 (one retry)", n)
	}
}
