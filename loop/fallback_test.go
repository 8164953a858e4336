package loop

import (
	"context"
	"errors"
	"testing"
)

func TestFallback(t *testing.T) {
	a, b := &flaky{n: 9, err: errors.New("down")}, &flaky{}
	p, err := Fallback(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if text, err := collect(t.Context(), p); err != nil || text != "ok" {
		t.Fatalf("%q %v", text, err)
	}
	all, _ := Fallback(&flaky{n: 9, err: errors.New("x")}, &flaky{n: 9, err: errors.New("y")})
	if _, err := collect(t.Context(), all); err == nil || err.Error() != "x\ny" {
		t.Fatalf("%v", err)
	}
	if _, err := Fallback(); err == nil {
		t.Fatal("empty fallback accepted")
	}
}

// An abort never falls back to the next provider (failure mode 9).
func TestFallbackNeverOnAbort(t *testing.T) {
	a, b := &flaky{n: 9, err: context.Canceled}, &flaky{}
	p, _ := Fallback(a, b)
	if _, err := collect(t.Context(), p); !errors.Is(err, context.Canceled) || b.calls.Load() != 0 {
		t.Fatalf("%v, next provider called %d times", err, b.calls.Load())
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	a2, b2 := &flaky{n: 9, err: errors.New("down")}, &flaky{}
	p2, _ := Fallback(a2, b2)
	if _, err := collect(ctx, p2); err == nil || b2.calls.Load() != 0 {
		t.Fatalf("%v, next provider called %d times under a cancelled ctx", err, b2.calls.Load())
	}
}
