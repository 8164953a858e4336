package jsonx

// This file is the single pass over a JSON document behind [Parse]:
// it checks the syntax (RFC 8259) and records where every value starts and
// ends, in document order, so that a [Decoder] reads each value
// straight from its bytes without parsing anything twice.

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// maxScanDepth is how deeply arrays and objects may nest, as in encoding/json.
const maxScanDepth = 10000

// node is one JSON value of a document: an object, an array, a string
// (member names included), a number or a literal. Nodes are stored in
// document order, each container followed by its members (an object's as
// name and value, alternating).
type node struct {
	start, end int32 // the value's bytes, quotes and brackets included
	next       int32 // the index of the node after this value's subtree
	// val is, for a string, where its value ends in [document.text] (it
	// starts at start+1), or -1-k when the value is document.grown[k];
	// for an array, how many elements it has.
	val  int32
	kind byte // '{', '[', '"', '0' (number), 't', 'f' or 'n'
	// plain: a container without whitespace inside, already compact.
	plain bool
}

// document is a scanned JSON text.
type document struct {
	// data is the caller's text, read only while decoding: what a
	// decoder keeps of it, it copies.
	data []byte
	// text is the document's own copy of data, in which each string's
	// value is written over the string's own bytes (a value is never
	// longer than its escaped spelling, except when invalid UTF-8 is
	// replaced: those go to grown). Every string a decoder returns is a
	// slice of text, so a document costs one allocation for all its
	// strings rather than one each: a string apiece was half the
	// allocations of a long thread's decoding (issue 26). The price is
	// that a string kept keeps the whole text alive.
	text  string
	grown []string
	nodes []node
}

// scanner builds a document; ok turns false at the first syntax error.
type scanner struct {
	data []byte
	// buf becomes document.text: written while scanning, never after.
	buf   []byte
	grown []string
	pos   int
	nodes []node
	ws    int // whitespace bytes skipped inside containers so far
	ok    bool
}

// scan checks that data is exactly one JSON value and indexes it. It
// reports false for anything encoding/json's Valid rejects.
func scan(data []byte) (*document, bool) {
	if len(data) > 1<<31-1 {
		return nil, false
	}
	s := &scanner{data: data, ok: true, nodes: make([]node, 0, 8+len(data)/24)}
	s.buf = append([]byte(nil), data...) // not zeroed first, as make would
	s.skipSpace()
	s.value(0)
	s.skipSpace()
	if !s.ok || s.pos != len(data) {
		return nil, false
	}
	// buf is not written after this: the string is immutable, as Go's
	// strings must be.
	text := unsafe.String(unsafe.SliceData(s.buf), len(s.buf))
	return &document{data: data, text: text, grown: s.grown, nodes: s.nodes}, true
}

func (s *scanner) skipSpace() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
			s.ws++
		default:
			return
		}
	}
}

// value scans one value at s.pos and appends its nodes.
func (s *scanner) value(depth int) {
	if s.pos >= len(s.data) {
		s.ok = false
		return
	}
	i := len(s.nodes)
	s.nodes = append(s.nodes, node{start: int32(s.pos)})
	switch c := s.data[s.pos]; c {
	case '{':
		s.object(i, depth+1)
	case '[':
		s.array(i, depth+1)
	case '"':
		s.nodes[i].kind = '"'
		s.nodes[i].val = s.str()
	case 't':
		s.nodes[i].kind = c
		s.literal("true")
	case 'f':
		s.nodes[i].kind = c
		s.literal("false")
	case 'n':
		s.nodes[i].kind = c
		s.literal("null")
	default:
		s.nodes[i].kind = '0'
		s.number()
	}
	s.nodes[i].end = int32(s.pos)
	s.nodes[i].next = int32(len(s.nodes))
}

func (s *scanner) literal(lit string) {
	if len(s.data)-s.pos < len(lit) || string(s.data[s.pos:s.pos+len(lit)]) != lit {
		s.ok = false
		return
	}
	s.pos += len(lit)
}

func (s *scanner) object(i, depth int) {
	s.nodes[i].kind = '{'
	if depth > maxScanDepth {
		s.ok = false
		return
	}
	ws := s.ws
	s.pos++ // {
	s.skipSpace()
	if s.pos < len(s.data) && s.data[s.pos] == '}' {
		s.pos++
		s.nodes[i].plain = s.ws == ws
		return
	}
	for s.ok {
		if s.pos >= len(s.data) || s.data[s.pos] != '"' {
			s.ok = false
			return
		}
		s.value(depth) // the name
		s.skipSpace()
		if s.pos >= len(s.data) || s.data[s.pos] != ':' {
			s.ok = false
			return
		}
		s.pos++
		s.skipSpace()
		s.value(depth)
		s.skipSpace()
		if s.pos >= len(s.data) {
			s.ok = false
			return
		}
		switch s.data[s.pos] {
		case ',':
			s.pos++
			s.skipSpace()
		case '}':
			s.pos++
			s.nodes[i].plain = s.ws == ws
			return
		default:
			s.ok = false
			return
		}
	}
}

func (s *scanner) array(i, depth int) {
	s.nodes[i].kind = '['
	if depth > maxScanDepth {
		s.ok = false
		return
	}
	ws := s.ws
	s.pos++ // [
	s.skipSpace()
	if s.pos < len(s.data) && s.data[s.pos] == ']' {
		s.pos++
		s.nodes[i].plain = s.ws == ws
		return
	}
	for s.ok {
		s.value(depth)
		s.nodes[i].val++
		s.skipSpace()
		if s.pos >= len(s.data) {
			s.ok = false
			return
		}
		switch s.data[s.pos] {
		case ',':
			s.pos++
			s.skipSpace()
		case ']':
			s.pos++
			s.nodes[i].plain = s.ws == ws
			return
		default:
			s.ok = false
			return
		}
	}
}

// str scans the string at s.pos and returns where its value ends in buf
// (it starts after the opening quote), or -1-k when the value is
// grown[k] (see [node].val). An
// ASCII string with escapes has its value written over its spelling in buf
// as the scan goes: unquoting it after the scan walked its bytes a second
// time, 8 % of a long thread's request, whose tool arguments and results
// are JSON inside strings (issue 26). A string whose bytes are its value
// (plain: no escapes, valid UTF-8) is in buf already; any other is
// unquoted after its scan ([scanner.unquote]).
func (s *scanner) str() int32 {
	s.pos++ // "
	start := s.pos
	ascii := true
	// w is where the value goes on in buf, from the first escape on (-1
	// before it); from is the first byte of data not yet written there.
	w, from := -1, 0
	for s.pos < len(s.data) {
		s.pos += plainWords(s.data[s.pos:])
		if s.pos >= len(s.data) {
			break
		}
		c := s.data[s.pos]
		switch {
		case c == '"':
			end := s.pos
			s.pos++
			switch {
			case w < 0 && (ascii || utf8.Valid(s.data[start:end])):
				return int32(end) // its bytes are its value
			case ascii:
				w += copy(s.buf[w:], s.data[from:end])
				return int32(w)
			default:
				return s.unquote(start, end)
			}
		case c == '\\':
			if w < 0 {
				w = s.pos
			} else {
				w += copy(s.buf[w:], s.data[from:s.pos])
			}
			if !s.escape(&w) {
				s.ok = false
				return 0
			}
			from = s.pos
		case c < 0x20:
			s.ok = false
			return 0
		default:
			if c >= utf8.RuneSelf {
				ascii = false
			}
			s.pos++
		}
	}
	s.ok = false
	return 0
}

// escape checks the escape at s.pos, writes its value at buf[*w] and
// moves both past it; false for an escape that is not well formed. A
// high surrogate followed by a low one is one rune; any other surrogate
// is U+FFFD, as encoding/json decodes it. A value never takes more
// bytes than its escape, so the writes stay inside the string's spelling.
func (s *scanner) escape(w *int) bool {
	if s.pos+1 >= len(s.data) {
		return false
	}
	c := s.data[s.pos+1]
	switch c {
	case '"', '\\', '/':
	case 'b':
		c = '\b'
	case 'f':
		c = '\f'
	case 'n':
		c = '\n'
	case 'r':
		c = '\r'
	case 't':
		c = '\t'
	case 'u':
		if !s.hex4At(s.pos) {
			return false
		}
		r := hex4(s.data[s.pos+2:])
		s.pos += 6
		if utf16.IsSurrogate(r) {
			if s.hex4At(s.pos) {
				if pair := utf16.DecodeRune(r, hex4(s.data[s.pos+2:])); pair != utf8.RuneError {
					r = pair
					s.pos += 6
				} else {
					r = utf8.RuneError
				}
			} else {
				r = utf8.RuneError
			}
		}
		*w += utf8.EncodeRune(s.buf[*w:], r)
		return true
	default:
		return false
	}
	s.buf[*w] = c
	*w++
	s.pos += 2
	return true
}

// hex4At reports whether data holds a \u escape with four hex digits at
// i.
func (s *scanner) hex4At(i int) bool {
	if i+6 > len(s.data) || s.data[i] != '\\' || s.data[i+1] != 'u' {
		return false
	}
	for _, h := range s.data[i+2 : i+6] {
		if hexValue(h) < 0 {
			return false
		}
	}
	return true
}

// unquote writes the value of the string whose body is data[start:end]
// over its spelling in buf, or to grown when it is longer than its
// spelling (invalid UTF-8 replaced), and returns where it is, as
// [scanner.str] does.
func (s *scanner) unquote(start, end int) int32 {
	body := s.data[start:end]
	// Unquoting into buf's room for the spelling reallocates only when
	// the value is longer, which is rare.
	room := s.buf[start:start:end]
	v := appendUnquoted(room, body)
	if len(v) <= len(body) {
		return int32(start + len(v))
	}
	s.grown = append(s.grown, string(v))
	return int32(-len(s.grown))
}

func hexValue(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

func (s *scanner) digits() int {
	n := 0
	for s.pos < len(s.data) && s.data[s.pos] >= '0' && s.data[s.pos] <= '9' {
		s.pos++
		n++
	}
	return n
}

// number scans -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func (s *scanner) number() {
	if s.pos < len(s.data) && s.data[s.pos] == '-' {
		s.pos++
	}
	if s.pos >= len(s.data) {
		s.ok = false
		return
	}
	switch c := s.data[s.pos]; {
	case c == '0':
		s.pos++
	case c >= '1' && c <= '9':
		s.digits()
	default:
		s.ok = false
		return
	}
	if s.pos < len(s.data) && s.data[s.pos] == '.' {
		s.pos++
		if s.digits() == 0 {
			s.ok = false
			return
		}
	}
	if s.pos < len(s.data) && (s.data[s.pos] == 'e' || s.data[s.pos] == 'E') {
		s.pos++
		if s.pos < len(s.data) && (s.data[s.pos] == '+' || s.data[s.pos] == '-') {
			s.pos++
		}
		if s.digits() == 0 {
			s.ok = false
		}
	}
}

// stringValue returns the value of string node n, decoded as
// encoding/json decodes it: escapes resolved, and each invalid UTF-8 byte
// or unpaired surrogate replaced by U+FFFD. It does not allocate.
func (doc *document) stringValue(n *node) string {
	if n.val < 0 {
		return doc.grown[-1-n.val]
	}
	return doc.text[n.start+1 : n.val]
}

// appendUnquoted appends the value of the body of a scanned string (its
// escapes are known to be well formed) to dst. It copies each run of
// plain ASCII at once, found eight bytes at a time: byte by byte, it was
// a tenth of a long thread's decoding, and found with bytes.IndexByte and
// utf8.Valid, whose calls cost more than the short runs between the
// escapes of JSON inside a string (tool arguments and results), 10 % of
// a long thread's request (issue 26).
func appendUnquoted(dst, b []byte) []byte {
	for i := 0; i < len(b); {
		// Inside a scanned string, plainWords stops only at a backslash
		// or a byte beyond ASCII.
		j := i + plainWords(b[i:])
		for j < len(b) && b[j] != '\\' && b[j] < utf8.RuneSelf {
			j++
		}
		dst = append(dst, b[i:j]...)
		if i = j; i == len(b) {
			break
		}
		if b[i] != '\\' {
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				dst = utf8.AppendRune(dst, utf8.RuneError)
			} else {
				dst = append(dst, b[i:i+size]...)
			}
			i += size
			continue
		}
		switch b[i+1] {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r := hex4(b[i+2:])
			i += 6
			if utf16.IsSurrogate(r) {
				if i+6 <= len(b) && b[i] == '\\' && b[i+1] == 'u' {
					if pair := utf16.DecodeRune(r, hex4(b[i+2:])); pair != utf8.RuneError {
						r = pair
						i += 6
					} else {
						r = utf8.RuneError
					}
				} else {
					r = utf8.RuneError
				}
			}
			dst = utf8.AppendRune(dst, r)
			continue
		default: // " \ /
			dst = append(dst, b[i+1])
		}
		i += 2
	}
	return dst
}

// plainWords returns how many bytes at b's start are ASCII that ends no
// string and escapes nothing (see [plain] for the test), testing eight at
// a time; it stops within the last eight bytes. The profile of a long
// thread's decoding showed the scanner's strings, read a byte at a time,
// as its largest part (issue 26). In the word that fails the test, the
// lowest flagged byte is the first that is not plain (a borrow only moves
// up from a flagged byte), so the count is exact: counting only whole
// words, the bytes before an escape were read one at a time, each with a
// call here, and JSON inside a string has an escape every few bytes.
func plainWords(b []byte) int {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		if m := (x | (x - lo*0x20) | ((x ^ lo*'"') - lo) | ((x ^ lo*'\\') - lo)) & hi; m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	return i
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		r = r<<4 | rune(hexValue(c))
	}
	return r
}
