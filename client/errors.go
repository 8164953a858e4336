package client

import (
	"fmt"

	"github.com/agui-go/agui"
)

// StatusError is an agent's refusal before its stream started: an HTTP
// status other than 2xx, with the JSON error body {"error", "code",
// "field"} the servers of this module write (other bodies leave Code
// empty and Message the start of the body). [Agent.Run] returns it
// wrapped in an [*agui.Error] with the same code, so [agui.CodeOf] routes
// on it. Values are immutable.
type StatusError struct {
	StatusCode int
	Code       agui.Code
	Message    string
	// Field is the JSON path of the input value the agent refused, if any.
	Field string
}

// Error returns "status 400: BAD_INPUT: message (field)".
func (e *StatusError) Error() string {
	s := fmt.Sprintf("status %d", e.StatusCode)
	if e.Code != "" {
		s += ": " + string(e.Code)
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	if e.Field != "" {
		s += " (" + e.Field + ")"
	}
	return s
}

// errOption is the error of an invalid option.
func errOption(msg string) error {
	return agui.NewError(agui.CodeProtocol, "client: "+msg)
}
