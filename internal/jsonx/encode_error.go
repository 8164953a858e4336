package jsonx

import (
	"strconv"
	"strings"
)

// EncodeError locates an error met while encoding a value: its message is
// the JSON path of the part at fault followed by the cause, as in
// "input.messages[2].content[0]: unsupported number NaN", and it unwraps
// to the cause. Encoders build it on the way out of their recursion with
// [At] and [AtIndex]; a path deeper than 16 levels is cut short with "…".
type EncodeError struct {
	// segments are member names and [i] indexes, innermost first: the
	// error is built on the way out of the recursion.
	segments []string
	err      error
}

// maxPathSegments bounds the path an error message shows; a value that
// contains itself would otherwise name thousands of levels.
const maxPathSegments = 16

// Error returns the path, a colon and the cause's message.
func (e *EncodeError) Error() string {
	var b strings.Builder
	for i := len(e.segments) - 1; i >= 0; i-- {
		if len(e.segments)-i > maxPathSegments {
			b.WriteString("…")
			break
		}
		if s := e.segments[i]; i == len(e.segments)-1 || strings.HasPrefix(s, "[") {
			b.WriteString(s)
		} else {
			b.WriteString("." + s)
		}
	}
	return b.String() + ": " + e.err.Error()
}

// Unwrap returns the cause.
func (e *EncodeError) Unwrap() error { return e.err }

// At puts err, an error met while encoding the value of the member name,
// under that name: it wraps err in an [EncodeError], or prepends name to
// the path when err already is one. An EncodeError is extended in place,
// so At must only be given one that the current encoding created and has
// not returned to its caller yet.
func At(name string, err error) error {
	if pe, ok := err.(*EncodeError); ok {
		pe.segments = append(pe.segments, name)
		return pe
	}
	return &EncodeError{segments: []string{name}, err: err}
}

// AtIndex is [At] for element i of an array.
func AtIndex(i int, err error) error { return At("["+strconv.Itoa(i)+"]", err) }
