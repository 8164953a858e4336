package loop

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"time"
)

// RetryOption configures [Retry].
type RetryOption func(*retryConfig) error

type retryConfig struct {
	attempts  int
	backoff   func(attempt int) time.Duration
	retryable func(error) bool
}

// WithAttempts sets how many times a turn is tried in all (default 3).
func WithAttempts(n int) RetryOption {
	return func(c *retryConfig) error {
		if n < 1 {
			return fmt.Errorf("loop: Attempts %d: must be at least 1", n)
		}
		c.attempts = n
		return nil
	}
}

// WithBackoff sets the wait before retry number attempt (1-based); the default
// doubles from 250ms up to 8s.
func WithBackoff(f func(attempt int) time.Duration) RetryOption {
	return func(c *retryConfig) error {
		if f == nil {
			return errors.New("loop: Backoff: nil function")
		}
		c.backoff = f
		return nil
	}
}

// WithRetryIf restricts retries to errors f accepts (default [IsRetryable]:
// every error except those that say asking again cannot help).
// An abort is never retried, whatever f says.
func WithRetryIf(f func(error) bool) RetryOption {
	return func(c *retryConfig) error {
		if f == nil {
			return errors.New("loop: RetryIf: nil function")
		}
		c.retryable = f
		return nil
	}
}

// Retry wraps p so that a turn that fails before yielding anything is
// tried again after a backoff. Once a delta has been yielded the failure is
// final, since the loop has already streamed it. An abort (ctx done, or an
// error that is [context.Canceled]) is never retried, and the backoff wait
// ends when ctx does. The result is safe for concurrent use if p is.
func Retry(p Provider, opts ...RetryOption) (Provider, error) {
	if p == nil {
		return nil, errors.New("loop: Retry: nil provider")
	}
	c := retryConfig{
		attempts:  3,
		backoff:   func(n int) time.Duration { return min(250*time.Millisecond<<(n-1), 8*time.Second) },
		retryable: IsRetryable,
	}
	for _, o := range opts {
		if err := o(&c); err != nil {
			return nil, err
		}
	}
	return ProviderFunc(func(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
		return func(yield func(Delta, error) bool) {
			for attempt := 1; ; attempt++ {
				err, started := forward(ctx, p, req, yield)
				if err == nil || started || isAbort(ctx, err) || attempt >= c.attempts || !c.retryable(err) {
					if err != nil && !started {
						yield(Delta{}, err)
					}
					return
				}
				t := time.NewTimer(c.backoff(attempt))
				select {
				case <-ctx.Done():
					t.Stop()
					yield(Delta{}, ctx.Err())
					return
				case <-t.C:
				}
			}
		}
	}), nil
}

// forward streams one attempt of p into yield. It returns the attempt's
// error without yielding it when nothing was yielded yet, so the caller
// may try again; started says whether anything was yielded. A consumer
// that stopped reading ends the attempt with a nil error.
func forward(ctx context.Context, p Provider, req ModelRequest, yield func(Delta, error) bool) (err error, started bool) {
	for d, err := range p.Stream(ctx, req) {
		if err != nil {
			if started {
				yield(Delta{}, err)
			}
			return err, started
		}
		started = true
		if !yield(d, nil) {
			return nil, true
		}
	}
	return nil, started
}

// isAbort reports whether err comes from the run being aborted rather than
// from the provider failing: such errors are never retried or fallen back
// on. A deadline of the provider's own (ctx still live) is a failure.
func isAbort(ctx context.Context, err error) bool {
	return ctx.Err() != nil || errors.Is(err, context.Canceled)
}
