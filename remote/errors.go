package remote

import (
	"errors"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/client"
)

// Codes of the errors a remote run fails with. They are what RUN_ERROR
// carries (and a [Tool]'s error result), so their values never change.
// The remote's own code, if any, is in the message.
const (
	// CodeRefused: the remote agent answered the run's request with an
	// HTTP status other than 2xx (its [*client.StatusError] is wrapped).
	CodeRefused agui.Code = "REMOTE_REFUSED"
	// CodeRunError: the remote run ended in RUN_ERROR.
	CodeRunError agui.Code = "REMOTE_RUN_ERROR"
	// CodeConnection: the remote agent could not be reached, or its
	// stream ended before the remote run's terminal event.
	CodeConnection agui.Code = "REMOTE_CONNECTION"
	// CodeBadStream: the remote's stream broke the protocol (an ordering
	// rule, or an event that does not decode).
	CodeBadStream agui.Code = "REMOTE_BAD_STREAM"
)

// remoteError gives an error of the client its remote code. A cancelled
// run's error keeps CANCELLED: the cancellation was ours, not the
// remote's.
func remoteError(err error) error {
	if agui.IsCancelled(err) {
		return err
	}
	var se *client.StatusError
	code := CodeBadStream
	switch {
	case errors.As(err, &se):
		code = CodeRefused
	case agui.CodeOf(err) == agui.CodeDisconnected:
		code = CodeConnection
	}
	return &agui.Error{Code: code, Message: "remote: " + message(err), Err: err}
}

// runError is the error of a remote run that ended in RUN_ERROR.
func runError(e *agui.RunError) error {
	msg := "remote: the remote run failed"
	if e.Code != "" {
		msg += ": " + e.Code
	}
	if e.Message != "" {
		msg += ": " + e.Message
	}
	return agui.NewError(CodeRunError, msg)
}

// message is err's client-facing text.
func message(err error) string {
	var e *agui.Error
	if errors.As(err, &e) {
		return e.Message
	}
	return err.Error()
}
