package agui

import (
	"context"
	"errors"
)

// Code is the stable, machine-readable kind of an [Error]. It is what a
// RUN_ERROR event carries in its code field, and what the JSON body of a
// request refused before its stream carries (core's RequestError), so its
// values never change. Every code of this module is a Code constant of
// the package that emits it; docs/errors.md lists them all, with their
// meaning.
type Code string

// The error codes of this package. The first six follow the Rust crate
// whose design this package follows; the rest are Go additions.
const (
	// CodeProtocol: a value broke a protocol rule outside the event order,
	// such as an interrupt outcome with no interrupts.
	CodeProtocol Code = "PROTOCOL"
	// CodeSerialization: state, arguments, a result or an event would not
	// convert to or from JSON, or an event is over the 10 MiB frame limit.
	CodeSerialization Code = "SERIALIZATION"
	// CodeProtocolViolation: the emitted stream broke an ordering rule (see
	// [Rule]).
	CodeProtocolViolation Code = "PROTOCOL_VIOLATION"
	// CodeCancelled: the run was cancelled, usually because the client went
	// away or the server is shutting down.
	CodeCancelled Code = "CANCELLED"
	// CodeDisconnected: the consumer stopped reading the event stream.
	CodeDisconnected Code = "DISCONNECTED"
	// CodeAgent: the agent's own code failed.
	CodeAgent Code = "AGENT_ERROR"
	// CodePanic: the agent panicked; the driver recovered it.
	CodePanic Code = "AGENT_PANIC"
	// CodeTransform: a stream transformer failed.
	CodeTransform Code = "TRANSFORM_ERROR"
	// CodeTypeWithoutValue: an event carried an encryptedValueType without
	// the encryptedValue it labels (AG-UI 1.1), caught by the verifier
	// ([RuleTypeWithoutValue]).
	CodeTypeWithoutValue Code = "ENCRYPTED_VALUE_TYPE_WITHOUT_VALUE"
)

// Error is the error type of this package: a stable [Code], the message a
// client sees in RUN_ERROR, and an optional cause for logs and [errors.Is].
//
// Errors are immutable once built and safe to share between goroutines.
type Error struct {
	Code    Code
	Message string
	// Err is the underlying cause, if any; Unwrap returns it.
	Err error
}

// NewError returns an [Error] with the given code and client-facing message.
func NewError(code Code, message string) *Error {
	return &Error{Code: code, Message: message}
}

// AgentError wraps any error as an agent failure: code AGENT_ERROR and the
// message "agent error: <err>". An error that already is an [*Error] is
// returned as it is, so wrapping twice changes nothing.
func AgentError(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) && e != nil {
		return e
	}
	return &Error{Code: CodeAgent, Message: "agent error: " + ErrorText(err), Err: err}
}

// Error returns the client-facing message; a nil *Error has a fixed one.
func (e *Error) Error() string {
	if e == nil {
		return "agui: nil *Error"
	}
	return e.Message
}

// Unwrap returns the cause (nil for a nil [*Error]).
func (e *Error) Unwrap() error {
	if e == nil {
		return nil
	}
	return e.Err
}

// Is reports whether target is an [*Error] with the same code, so that
// errors.Is(err, agui.ErrCancelled) matches any cancellation.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && e != nil && t != nil && t.Message == "" && t.Err == nil && t.Code == e.Code
}

// Sentinels for [errors.Is]. They match any [*Error] with the same code.
var (
	ErrCancelled    error = &Error{Code: CodeCancelled}
	ErrDisconnected error = &Error{Code: CodeDisconnected}
)

// CodeOf returns the code of err: its [*Error]'s code, [CodeCancelled] for
// [context.Canceled] and [context.DeadlineExceeded], [CodeAgent] for any other
// non-nil error, and "" for nil.
func CodeOf(err error) (c Code) {
	if err == nil {
		return ""
	}
	defer func() {
		if recover() != nil {
			c = CodeAgent // an Unwrap, Is or As method of err panicked
		}
	}()
	var e *Error
	if errors.As(err, &e) {
		if e == nil {
			return CodeAgent
		}
		return e.Code
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return CodeCancelled
	}
	return CodeAgent
}

// IsCancelled reports whether err means the run was cancelled: a
// CANCELLED error, or a context cancellation or deadline.
func IsCancelled(err error) bool { return CodeOf(err) == CodeCancelled }

// IsDisconnected reports whether err means the consumer went away.
func IsDisconnected(err error) bool { return CodeOf(err) == CodeDisconnected }
