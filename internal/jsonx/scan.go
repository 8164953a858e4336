package jsonx

// This file is the single pass over a JSON document behind [Parse]:
// it checks the syntax (RFC 8259) and records where every value starts and
// ends, in document order, so that a [Decoder] reads each value
// straight from its bytes without parsing anything twice.

import (
	"bytes"
	"encoding/binary"
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
	// starts at start+1), or -1-k when the value is document.grown[k].
	val  int32
	kind byte // '{', '[', '"', '0' (number), 't', 'f' or 'n'
	// plain: a string without escapes and with valid UTF-8, whose bytes
	// are its value; a container without whitespace inside, already
	// compact.
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
	s.skipSpace()
	s.value(0)
	s.skipSpace()
	if !s.ok || s.pos != len(data) {
		return nil, false
	}
	s.strings()
	// buf is not written after this: the string is immutable, as Go's
	// strings must be.
	text := unsafe.String(unsafe.SliceData(s.buf), len(s.buf))
	return &document{data: data, text: text, grown: s.grown, nodes: s.nodes}, true
}

// strings copies the scanned text into buf and writes each string's value
// over its spelling there, recording where the value ends.
func (s *scanner) strings() {
	s.buf = make([]byte, len(s.data))
	copy(s.buf, s.data)
	for i := range s.nodes {
		n := &s.nodes[i]
		if n.kind != '"' {
			continue
		}
		if n.plain {
			n.val = n.end - 1
			continue
		}
		body := s.data[n.start+1 : n.end-1]
		// Unquoting into buf's room for the spelling reallocates only
		// when the value is longer, which is rare.
		room := s.buf[n.start+1 : n.start+1 : n.end-1]
		if v := appendUnquoted(room, body); len(v) <= len(body) {
			n.val = n.start + 1 + int32(len(v))
		} else {
			s.grown = append(s.grown, string(v))
			n.val = int32(-len(s.grown))
		}
	}
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
		s.nodes[i].plain = s.str()
	case 't':
		s.literal(i, "true")
	case 'f':
		s.literal(i, "false")
	case 'n':
		s.literal(i, "null")
	default:
		s.nodes[i].kind = '0'
		s.number()
	}
	s.nodes[i].end = int32(s.pos)
	s.nodes[i].next = int32(len(s.nodes))
}

func (s *scanner) literal(i int, lit string) {
	s.nodes[i].kind = lit[0]
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

// str scans a string and reports whether its bytes are its value: no
// escapes, and valid UTF-8.
func (s *scanner) str() bool {
	s.pos++ // "
	plain, ascii := true, true
	for s.pos < len(s.data) {
		s.pos += plainWords(s.data[s.pos:])
		if s.pos >= len(s.data) {
			break
		}
		c := s.data[s.pos]
		switch {
		case c == '"':
			start := int(s.nodes[len(s.nodes)-1].start) + 1
			s.pos++
			if !ascii && plain {
				plain = utf8.Valid(s.data[start : s.pos-1])
			}
			return plain
		case c == '\\':
			plain = false
			if s.pos+1 >= len(s.data) {
				s.ok = false
				return false
			}
			switch s.data[s.pos+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.pos += 2
			case 'u':
				if s.pos+6 > len(s.data) {
					s.ok = false
					return false
				}
				for _, h := range s.data[s.pos+2 : s.pos+6] {
					if hexValue(h) < 0 {
						s.ok = false
						return false
					}
				}
				s.pos += 6
			default:
				s.ok = false
				return false
			}
		case c < 0x20:
			s.ok = false
			return false
		default:
			if c >= utf8.RuneSelf {
				ascii = false
			}
			s.pos++
		}
	}
	s.ok = false
	return false
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
// escapes are known to be well formed) to dst. It copies each run up to a
// backslash in one go when the run is valid UTF-8: byte by byte, it was a
// tenth of a long thread's decoding, and looking for the end of a run a
// byte at a time, 8% of a long thread's request (issue 26).
func appendUnquoted(dst, b []byte) []byte {
	for i := 0; i < len(b); {
		end := len(b)
		if j := bytes.IndexByte(b[i:], '\\'); j >= 0 {
			end = i + j
		}
		if run := b[i:end]; utf8.Valid(run) {
			dst = append(dst, run...)
		} else {
			dst = appendValidUTF8(dst, run)
		}
		if i = end; i == len(b) {
			break
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

// appendValidUTF8 appends b to dst with each invalid UTF-8 byte replaced
// by U+FFFD, as encoding/json decodes it.
func appendValidUTF8(dst, b []byte) []byte {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			dst = utf8.AppendRune(dst, utf8.RuneError)
		} else {
			dst = append(dst, b[i:i+size]...)
		}
		i += size
	}
	return dst
}

// plainWords returns how many bytes at b's start are, eight at a time,
// ASCII that ends no string and escapes nothing (see [plain] for the
// test): the profile of a long thread's decoding showed the scanner's
// strings, read a byte at a time, as its largest part (issue 26).
func plainWords(b []byte) int {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		if (x|(x-lo*0x20)|((x^lo*'"')-lo)|((x^lo*'\\')-lo))&hi != 0 {
			break
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
