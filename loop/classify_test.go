package loop

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"testing"
	"time"

	"github.com/agui-go/agui"
)

type verdict bool

func (v verdict) Error() string   { return "provider error" }
func (v verdict) Retryable() bool { return bool(v) }

func TestIsRetryable(t *testing.T) {
	cases := map[string]struct {
		err  error
		want bool
	}{
		"plain error":         {errors.New("connection reset"), true},
		"says yes":            {fmt.Errorf("wrapped: %w", verdict(true)), true},
		"says no":             {fmt.Errorf("wrapped: %w", verdict(false)), false},
		"unsupported content": {agui.NewError(CodeUnsupportedContent, "no audio"), false},
		"other coded error":   {agui.NewError(CodeProvider, "x"), true},
	}
	for name, c := range cases {
		if got := IsRetryable(c.err); got != c.want {
			t.Errorf("%s: %v, want %v", name, got, c.want)
		}
	}
}

// Retry's default asks once for an error that says retrying cannot help.
func TestRetryDefaultClassification(t *testing.T) {
	calls := 0
	p, err := Retry(ProviderFunc(func(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
		calls++
		return func(yield func(Delta, error) bool) { yield(Delta{}, verdict(false)) }
	}), WithAttempts(3), WithBackoff(func(int) time.Duration { return 0 }))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := collect(t.Context(), p); err == nil || calls != 1 {
		t.Fatalf("%d calls, err %v", calls, err)
	}
}
