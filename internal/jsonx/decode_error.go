package jsonx

import (
	"encoding/json"
	"errors"
	"fmt"
)

// DecodeError reports JSON that is not what a [Decoder] was asked to read.
//
// Path is the JSON path of the offending value, spelled as [MemberPath] and
// [IndexPath] spell it (messages[2].content[0].type); it is empty when the
// document as a whole is at fault. Malformed is true when the bytes are not
// the JSON asked for at all: a syntax error (from [Parse] or [ParseObject])
// or, for [ParseObject], a document that is not an object. It is false for
// well-formed JSON whose content a getter rejected.
//
// A DecodeError is not modified after a [Decoder] records it.
type DecodeError struct {
	Path      string
	Reason    string
	Malformed bool
}

// Error returns "Path: Reason", or just Reason when Path is empty.
func (e *DecodeError) Error() string {
	if e.Path == "" {
		return e.Reason
	}
	return e.Path + ": " + e.Reason
}

// syntaxError returns the error for data that is not valid JSON, worded
// as encoding/json words it.
func syntaxError(data []byte) *DecodeError {
	var raw json.RawMessage
	err := json.Unmarshal(data, &raw)
	reason := "invalid JSON"
	var syn *json.SyntaxError
	switch {
	case errors.As(err, &syn):
		reason = fmt.Sprintf("invalid JSON at offset %d: %s", syn.Offset, syn.Error())
	case err != nil:
		reason = "invalid JSON: " + err.Error()
	}
	return &DecodeError{Reason: reason, Malformed: true}
}
