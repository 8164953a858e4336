package loop

import (
	"context"
	"errors"
	"iter"
)

// Fallback returns a provider that tries ps in order: when one fails
// before yielding anything, the next is asked for the same turn. An abort
// never falls back. The result is safe for concurrent use if every p is.
func Fallback(ps ...Provider) (Provider, error) {
	if len(ps) == 0 {
		return nil, errors.New("loop: Fallback: no provider")
	}
	for _, p := range ps {
		if p == nil {
			return nil, errors.New("loop: Fallback: nil provider")
		}
	}
	return ProviderFunc(func(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
		return func(yield func(Delta, error) bool) {
			var errs []error
			for _, p := range ps {
				err, started := forward(ctx, p, req, yield)
				if err == nil || started {
					return
				}
				if isAbort(ctx, err) {
					yield(Delta{}, err)
					return
				}
				errs = append(errs, err)
			}
			yield(Delta{}, errors.Join(errs...))
		}
	}), nil
}
