package a2ui

import "strconv"

// Failure is the result of a tool whose every attempt produced an invalid
// surface: {"error":"Failed to generate valid A2UI after N attempt(s)",
// "code":"a2ui_recovery_exhausted","attempts":[…]}. The A2UI middleware
// of the AG-UI runtime shows it as the surface's failed state, and never
// paints an invalid surface. A plain value.
type Failure struct {
	Error    string    `json:"error"`
	Code     string    `json:"code"`
	Attempts []Attempt `json:"attempts"`
}

// Attempt is one try at a surface and what was wrong with it.
type Attempt struct {
	Attempt int       `json:"attempt"`
	OK      bool      `json:"ok"`
	Errors  []Problem `json:"errors,omitempty"`
}

// newFailure returns the failure after attempts.
func newFailure(attempts []Attempt) Failure {
	if attempts == nil {
		attempts = []Attempt{}
	}
	return Failure{
		Error:    "Failed to generate valid A2UI after " + strconv.Itoa(len(attempts)) + " attempt(s)",
		Code:     RecoveryExhausted,
		Attempts: attempts,
	}
}
