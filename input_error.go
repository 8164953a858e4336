package agui

import "github.com/agui-go/agui/internal/jsonx"

// InputError reports JSON that is not a valid AG-UI value: a run request
// body ([DecodeInput]), an event ([DecodeEvent]), a message ([DecodeMessage]) or
// content ([Content.UnmarshalJSON]).
//
// Field is the JSON path of the offending value, in the form
// messages[2].content[0].type; it is empty when the document as a whole is
// at fault. Malformed separates the two ways input goes wrong, which a
// transport maps to different HTTP statuses: true for bytes that are not a
// JSON object at all (syntax errors, truncation, a non-object body; 400 Bad
// Request), false for well-formed JSON whose content breaks the protocol
// (422 Unprocessable Entity).
//
// An InputError is not modified after it is returned and is safe to share
// between goroutines.
type InputError struct {
	Field     string
	Reason    string
	Malformed bool
}

// Error returns "Field: Reason", or just Reason when Field is empty.
func (e *InputError) Error() string {
	if e.Field == "" {
		return e.Reason
	}
	return e.Field + ": " + e.Reason
}

// Code returns [CodeSerialization] for malformed JSON and [CodeProtocol] for
// JSON whose content is invalid.
func (e *InputError) Code() Code {
	if e.Malformed {
		return CodeSerialization
	}
	return CodeProtocol
}

// inputError converts the decoder's error into the package's own: the
// path, the reason and the 400/422 split carry over unchanged.
func inputError(e *jsonx.DecodeError) *InputError {
	return &InputError{Field: e.Path, Reason: e.Reason, Malformed: e.Malformed}
}
