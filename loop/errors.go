package loop

import (
	"errors"

	"github.com/agui-go/agui"
)

// Codes of the errors a loop run fails with. They are what RUN_ERROR
// carries, so their values never change.
const (
	// CodeBusy: another run holds the thread.
	CodeBusy agui.Code = "THREAD_BUSY"
	// CodeInterrupted: a newer run on the thread asked this one to stop
	// ([BusyInterrupt]); it ended as an aborted run does.
	CodeInterrupted agui.Code = "THREAD_INTERRUPTED"
	// CodeIDTooLong: an id of the run's input (thread, run, message or tool
	// call id, a frontend tool's name), or a tool result it carries, would
	// make an event the run must emit exceed [agui.MaxEventSize]; the run
	// fails before anything runs.
	CodeIDTooLong agui.Code = "ID_TOO_LONG"
	// CodeBadResume: the input's resume does not answer the thread's pending
	// approval (missing, unknown or stale interrupt, or an invalid payload),
	// or new input arrived while an approval is pending.
	CodeBadResume agui.Code = "BAD_RESUME"
	// CodeDepth: a delegation went deeper than [WithMaxDelegationDepth].
	CodeDepth agui.Code = "DELEGATION_DEPTH"
	// CodeProvider: the model provider failed.
	CodeProvider agui.Code = "PROVIDER_ERROR"
	// CodeCheckpoint: the checkpoint store failed.
	CodeCheckpoint agui.Code = "CHECKPOINT_ERROR"
	// CodeStoreFull: the checkpoint store has no room for a new thread
	// (every thread it keeps is held by a run within its lease); the
	// code of the JSON 503 a route answers before the stream, with a
	// Retry-After (see [Agent.AdmitRun]).
	CodeStoreFull agui.Code = "CHECKPOINT_STORE_FULL"
	// CodeTool: a hook or tool stopped the run with a propagating error.
	CodeTool agui.Code = "TOOL_ERROR"
	// CodeApprovalExpired: a resume approved a call after its approval's
	// deadline ([WithApprovalTimeout]); the call got a rejected result instead.
	CodeApprovalExpired agui.Code = "APPROVAL_EXPIRED"
	// CodeToolNameClash: a frontend tool of the input has the name of a
	// tool the model is offered (an agent tool, or a tool of a tool set at
	// the turn about to be asked) or of another frontend tool.
	CodeToolNameClash agui.Code = "TOOL_NAME_CLASH"
	// CodeToolFailed: not a run failure but the code of a call's error
	// result when the tool returned an error that carries no code of its
	// own: its text may hold internal details (addresses, paths, session
	// ids), so the model and the client get this code and a fixed
	// message, and the full error goes to the log ([WithLogger]).
	CodeToolFailed agui.Code = "TOOL_FAILED"
	// CodeUnsupportedContent: a message holds a content part (an image, a
	// document, audio…) that the provider cannot take.
	CodeUnsupportedContent agui.Code = "UNSUPPORTED_CONTENT"
)

// PropagatingError marks a tool or hook error that must fail the whole run
// instead of becoming the call's error result. Create one with [Propagate];
// it is immutable and safe to share.
type PropagatingError struct{ Err error }

// Propagate marks err as fatal to the run: the batch starts no new calls,
// waits for the running ones, and the run fails with err.
func Propagate(err error) error {
	if err == nil {
		return nil
	}
	return &PropagatingError{Err: err}
}

func (e *PropagatingError) Error() string { return agui.ErrorText(e.Err) }

// Unwrap returns the marked error.
func (e *PropagatingError) Unwrap() error { return e.Err }

// isPropagating reports whether err was marked with Propagate.
func isPropagating(err error) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false // an Unwrap or As method of err panicked
		}
	}()
	var p *PropagatingError
	return errors.As(err, &p)
}

// runError converts a run failure to the *agui.Error a RUN_ERROR reports,
// keeping codes already set (a depth error inside a propagating one keeps
// DELEGATION_DEPTH). Any other error gets a fixed message for its code
// (see publicMessage) and is kept as the cause, for errors.Is and for the
// runner's log: provider, tool and store errors carry internal addresses,
// keys and paths that a browser must not see.
//
// It never panics and never returns a nil *agui.Error: a nil pointer inside
// err or an error method that panics gives code with a fixed message.
func runError(code agui.Code, err error) (out *agui.Error) {
	defer func() {
		if recover() != nil || out == nil {
			out = &agui.Error{Code: code, Message: publicMessage(code), Err: err}
		}
	}()
	var ce *agui.Error
	if errors.As(err, &ce) {
		return ce
	}
	return &agui.Error{Code: code, Message: publicMessage(code), Err: err}
}

// publicMessage is the client-facing message of a failure with code.
func publicMessage(code agui.Code) string {
	switch code {
	case CodeProvider:
		return "the model provider failed"
	case CodeTool:
		return "a tool or tool hook stopped the run"
	case CodeCheckpoint:
		return "the checkpoint store failed"
	}
	return "the run failed"
}
