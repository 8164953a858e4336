package langchaingo

import (
	"errors"

	"github.com/tmc/langchaingo/llms"
)

// APIError is a failure a backend reported with one of langchaingo's
// standard codes. It implements loop.RetryableError, so loop.Retry tries
// again on rate limits, timeouts and an unavailable backend, and not on a
// bad request or a refused key. It is immutable.
type APIError struct {
	Code llms.ErrorCode
	// Err is the backend's error, an *llms.Error or one wrapping it.
	Err error
}

func (e *APIError) Error() string { return "langchaingo: " + e.Err.Error() }

// Unwrap returns the backend's error.
func (e *APIError) Unwrap() error { return e.Err }

// Retryable reports whether asking again may succeed.
func (e *APIError) Retryable() bool {
	switch e.Code {
	case llms.ErrCodeRateLimit, llms.ErrCodeTimeout, llms.ErrCodeProviderUnavailable:
		return true
	}
	return false
}

// wrap wraps a backend's *llms.Error in an *APIError and returns other
// errors as they are; the loop reports either as PROVIDER_ERROR.
func wrap(err error) error {
	var le *llms.Error
	if errors.As(err, &le) {
		return &APIError{Code: le.Code, Err: err}
	}
	return err
}
