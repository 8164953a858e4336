package eino

import (
	"errors"
	"strings"

	"github.com/agui-go/agui"
)

// Codes of the RUN_ERRORs an [Agent] run ends with. Their values never
// change. The client gets the code and a fixed message; the full error,
// which may hold internal details, is the RUN_ERROR's cause and goes to
// the run's log line (core.WithLogger).
const (
	// CodeRunnerFailed: the eino agent or runner reported an error (an
	// AgentEvent's Err: a model or tool failure, a transfer to an unknown
	// agent, a broken stream).
	CodeRunnerFailed agui.Code = "EINO_AGENT_ERROR"
	// CodeRunnerPanic: something the eino runner runs (a model, a tool, a
	// callback, a middleware) panicked; eino recovered the panic and the
	// run ended.
	CodeRunnerPanic agui.Code = "EINO_PANIC"
	// CodeCheckPointFailed: the run cannot pause or resume: the agent
	// interrupted but the adapter has no checkpoint store
	// ([WithCheckPointStore]) or the interrupt was built by hand (eino
	// saves no checkpoint for it), a resume came with no store or no
	// checkpoint for the thread (an answer sent twice among them), or the
	// store failed.
	CodeCheckPointFailed agui.Code = "EINO_CHECKPOINT"
)

// runError codes an error eino reported. eino recovers panics into errors
// whose text starts "panic error:" (possibly wrapped by a graph node's
// error); there is no exported type to match.
func runError(err error) *agui.Error {
	var ae *agui.Error
	if errors.As(err, &ae) {
		return ae
	}
	if strings.Contains(err.Error(), "panic error: ") {
		return &agui.Error{Code: CodeRunnerPanic, Message: "the eino agent panicked", Err: err}
	}
	return &agui.Error{Code: CodeRunnerFailed, Message: "the eino agent failed", Err: err}
}

// checkpointError is a [CodeCheckPointFailed] failure with msg for the client
// and err as its cause.
func checkpointError(msg string, err error) *agui.Error {
	return &agui.Error{Code: CodeCheckPointFailed, Message: msg, Err: err}
}
