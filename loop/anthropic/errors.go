package anthropic

import (
	"errors"
	"net/http"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
)

// APIError is a failure the Anthropic API reported, as an HTTP status or
// as an error event in the stream. It implements loop.RetryableError, so
// loop.Retry tries again on rate limits, overload and server errors, and
// not on a bad request or a refused key. It is immutable.
type APIError struct {
	// StatusCode is the HTTP status (200 for an error event in a stream
	// that had started).
	StatusCode int
	// Type is the API's error type, such as "overloaded_error" or
	// "rate_limit_error"; "" when the body named none.
	Type string
	// Err is the client's *anthropic.Error.
	Err error
}

func (e *APIError) Error() string { return "anthropic: " + e.Err.Error() }

// Unwrap returns the client's error.
func (e *APIError) Unwrap() error { return e.Err }

// Retryable reports whether asking again may succeed: the error types
// rate_limit_error, overloaded_error, api_error and timeout_error, and the
// statuses 408, 409, 429 and 5xx (529 is Anthropic's "overloaded") are;
// anything else (invalid request, authentication, permission, not found,
// billing) is not.
func (e *APIError) Retryable() bool {
	switch sdk.ErrorType(e.Type) {
	case sdk.ErrorTypeRateLimitError, sdk.ErrorTypeOverloadedError, sdk.ErrorTypeAPIError, sdk.ErrorTypeTimeoutError:
		return true
	case "":
	default:
		return false
	}
	switch s := e.StatusCode; {
	case s == http.StatusRequestTimeout, s == http.StatusConflict, s == http.StatusTooManyRequests, s >= 500:
		return true
	}
	return false
}

// streamError is a broken stream, such as one that ended without
// message_stop; asking again may succeed.
type streamError struct{ msg string }

func (e *streamError) Error() string   { return e.msg }
func (e *streamError) Retryable() bool { return true }

// wrap wraps the client's API errors in an *APIError and returns others
// (network failures, context errors) as they are.
func wrap(err error) error {
	var ae *sdk.Error
	if errors.As(err, &ae) {
		return &APIError{StatusCode: ae.StatusCode, Type: string(ae.Type()), Err: err}
	}
	return err
}
