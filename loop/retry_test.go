package loop

import (
	"context"
	"errors"
	"iter"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// flaky fails its first n turns with err, then plays the text "ok".
type flaky struct {
	n     int
	err   error
	calls atomic.Int64
}

func (f *flaky) Stream(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
	return func(yield func(Delta, error) bool) {
		if int(f.calls.Add(1)) <= f.n {
			yield(Delta{}, f.err)
			return
		}
		yield(Delta{Text: "ok"}, nil)
	}
}

func collect(ctx context.Context, p Provider) (string, error) {
	var text string
	for d, err := range p.Stream(ctx, ModelRequest{}) {
		if err != nil {
			return text, err
		}
		text += d.Text
	}
	return text, nil
}

func TestRetryRecoversWithBackoff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &flaky{n: 2, err: errors.New("503")}
		p, err := Retry(f, WithAttempts(3))
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		text, err := collect(t.Context(), p)
		if err != nil || text != "ok" || f.calls.Load() != 3 {
			t.Fatalf("%q %v after %d calls", text, err, f.calls.Load())
		}
		if waited := time.Since(start); waited != 750*time.Millisecond {
			t.Fatalf("waited %v, want 250ms+500ms", waited)
		}
	})
}

func TestRetryGivesUp(t *testing.T) {
	f := &flaky{n: 5, err: errors.New("503")}
	p, _ := Retry(f, WithAttempts(2), WithBackoff(func(int) time.Duration { return 0 }))
	if _, err := collect(t.Context(), p); err == nil || f.calls.Load() != 2 {
		t.Fatalf("%v after %d", err, f.calls.Load())
	}
	p, _ = Retry(&flaky{n: 1, err: errors.New("400")}, WithRetryIf(func(error) bool { return false }))
	if _, err := collect(t.Context(), p); err == nil {
		t.Fatal("non-retryable error retried")
	}
}

// "A rejection caused by the abort ... is not retried by the
// provider retry and fallback wrappers" (failure mode 9), including an
// abort during the backoff wait.
func TestRetryNeverRetriesAnAbort(t *testing.T) {
	f := &flaky{n: 5, err: context.Canceled}
	p, _ := Retry(f, WithAttempts(5))
	if _, err := collect(t.Context(), p); !errors.Is(err, context.Canceled) || f.calls.Load() != 1 {
		t.Fatalf("%v after %d calls", err, f.calls.Load())
	}
	synctest.Test(t, func(t *testing.T) {
		f := &flaky{n: 5, err: errors.New("503")}
		p, _ := Retry(f, WithAttempts(5), WithBackoff(func(int) time.Duration { return time.Hour }))
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error)
		go func() { _, err := collect(ctx, p); done <- err }()
		synctest.Wait() // first attempt failed; the retry waits out its backoff
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) || f.calls.Load() != 1 {
			t.Fatalf("%v after %d calls", err, f.calls.Load())
		}
	})
}

// A turn that already streamed is not retried: its deltas are out.
func TestRetryNotAfterFirstDelta(t *testing.T) {
	var calls atomic.Int64
	half := ProviderFunc(func(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
		return func(yield func(Delta, error) bool) {
			calls.Add(1)
			if yield(Delta{Text: "part"}, nil) {
				yield(Delta{}, errors.New("reset"))
			}
		}
	})
	p, _ := Retry(half)
	text, err := collect(t.Context(), p)
	if err == nil || text != "part" || calls.Load() != 1 {
		t.Fatalf("%q %v %d", text, err, calls.Load())
	}
}

// In a run, an abort during the model call through Retry ends the run
// aborted after one provider call.
func TestRetryInRunAbortsOnce(t *testing.T) {
	entered := make(chan struct{})
	var calls atomic.Int64
	inner := blockingProvider(entered)
	counting := ProviderFunc(func(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
		calls.Add(1)
		return inner.Stream(ctx, req)
	})
	p, _ := Retry(counting, WithAttempts(5))
	a := mustNew(t, p)
	ctx, cancel := context.WithCancel(t.Context())
	x := goExecute(ctx, a, user("go"))
	<-entered
	cancel()
	res, err := x.wait()
	if err != nil || res.FinishReason != FinishAborted || calls.Load() != 1 {
		t.Fatalf("%s %v, %d provider calls", res.FinishReason, err, calls.Load())
	}
}
