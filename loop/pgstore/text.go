package pgstore

import (
	"errors"
	"strings"
	"unicode/utf8"
)

// ErrUnstorable: a thread id, owner or title holds a NUL byte or bytes
// that are not UTF-8, which PostgreSQL's text type cannot hold. No thread
// of such an id is ever stored, so a load or an update of one finds none
// ([loop.ErrNotFound]) and a delete has nothing to do; a save of one, or a
// title of that kind, fails with this error. It is the caller's input, not
// an outage: the error does not wrap [ErrUnavailable].
var ErrUnstorable = errors.New("pgstore: a thread id, owner or title holds a NUL byte or is not UTF-8")

// storable reports whether PostgreSQL's text type holds s.
func storable(s string) bool { return utf8.ValidString(s) && strings.IndexByte(s, 0) < 0 }
