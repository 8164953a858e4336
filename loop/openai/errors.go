package openai

import (
	"errors"
	"net/http"

	oai "github.com/openai/openai-go/v3"
)

// APIError is a failure the server reported with an HTTP status. It
// implements loop.RetryableError, so loop.Retry tries again on rate limits
// and server errors and not on a bad request or a refused key. It is
// immutable.
type APIError struct {
	StatusCode int
	// Err is the client's *openai.Error.
	Err error
}

func (e *APIError) Error() string { return "openai: " + e.Err.Error() }

// Unwrap returns the client's error.
func (e *APIError) Unwrap() error { return e.Err }

// Retryable reports whether asking again may succeed: statuses 408, 409,
// 429 and 5xx are; others (400, 401, 403, 404, 422) are not.
func (e *APIError) Retryable() bool {
	switch s := e.StatusCode; {
	case s == http.StatusRequestTimeout, s == http.StatusConflict, s == http.StatusTooManyRequests, s >= 500:
		return true
	}
	return false
}

// wrap wraps the client's API errors in an *APIError and returns others
// (network failures, context errors, a broken stream) as they are.
func wrap(err error) error {
	var ae *oai.Error
	if errors.As(err, &ae) && ae.StatusCode != 0 {
		return &APIError{StatusCode: ae.StatusCode, Err: err}
	}
	return err
}
