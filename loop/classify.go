package loop

import (
	"errors"

	"github.com/agui-go/agui"
)

// RetryableError is implemented by provider errors that know whether
// asking again may succeed: a rate limit, an overloaded or failing server
// may; a bad request, a refused key or unsupported content may not.
// Providers wrap their client's errors in one so that [Retry]'s default
// classification, [IsRetryable], needs no knowledge of any provider.
type RetryableError interface {
	error
	Retryable() bool
}

// IsRetryable is [Retry]'s default classification of a failed turn. An
// error in err's chain that implements [RetryableError] decides; an error
// with code [CodeUnsupportedContent] is not retryable (the same request
// fails the same way); any other error (a network failure, a stream cut
// short) is.
func IsRetryable(err error) bool {
	var re RetryableError
	if errors.As(err, &re) {
		return re.Retryable()
	}
	return agui.CodeOf(err) != CodeUnsupportedContent
}
