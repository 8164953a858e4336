package jsonx

import "unsafe"

// Reader reads a JSON document front to back, once, for a caller that
// knows the schema: it asks for each value in the order the document has
// it (an object opened, a member's name, a string) and decodes it straight
// into its own types, with no index of the document. Indexing every value
// before reading it ([Parse]), then looking each member up by name, was
// two thirds of a long thread's request (issue 26).
//
// A Reader answers only the questions of a well-formed, expected
// document: any other byte (a syntax error, a value of another type than
// asked) stops it, and [Reader.OK] turns false. It does not say what is
// wrong: a caller gives up and decodes the document through [Parse] and a
// [Decoder], which names the error. A caller may also step back to a
// [ReadMark] and read a value it does not read itself, such as an object
// of a rare shape, through [Reader.Value].
//
// Strings it returns are slices of one copy of the document, as
// [Parse]'s are.
type Reader struct {
	s scanner
	// text is s.buf as a string. Unlike [document].text it is made before
	// the scan writes each string's value into s.buf: the bytes of a
	// string handed out are never written again, which is what Go asks of
	// a string's bytes.
	text  string
	depth int
}

// ReadMark is a point of a [Reader]'s reading, for [Reader.Back].
type ReadMark struct{ pos, depth int }

// NewReader returns a Reader of data, which it copies: the caller may
// reuse data once the reading is done.
func NewReader(data []byte) *Reader {
	r := &Reader{s: scanner{data: data, ok: len(data) <= 1<<31-1}}
	r.s.buf = append([]byte(nil), data...) // not zeroed first, as make would
	r.text = unsafe.String(unsafe.SliceData(r.s.buf), len(r.s.buf))
	return r
}

// OK reports whether everything read so far was what was asked for.
func (r *Reader) OK() bool { return r.s.ok }

// Fail stops the reader, as a value other than the one asked for does:
// for a caller that met a value it does not read, such as a null where it
// needs a string.
func (r *Reader) Fail() { r.s.ok = false }

// Mark returns the point the reading has reached.
func (r *Reader) Mark() ReadMark { return ReadMark{r.s.pos, r.depth} }

// Back returns the reading to m, a point the reader has passed, and
// clears a failure met since.
func (r *Reader) Back(m ReadMark) {
	r.s.pos, r.depth, r.s.ok = m.pos, m.depth, true
}

// Open reads the opening '{' or '[' c of an object or array.
func (r *Reader) Open(c byte) bool {
	s := &r.s
	s.skipSpace()
	if !s.ok || s.pos >= len(s.data) || s.data[s.pos] != c || r.depth >= maxScanDepth {
		s.ok = false
		return false
	}
	s.pos++
	r.depth++
	return true
}

// More reports whether the object or array the reader is in, whose
// closing byte is end ('}' or ']'), has an i-th member or element (from
// 0), and reads up to it; at the end, it reads the closing byte.
//
//	for i := 0; r.More(i, ']'); i++ { ... read element i ... }
func (r *Reader) More(i int, end byte) bool {
	s := &r.s
	s.skipSpace()
	if !s.ok || s.pos >= len(s.data) {
		s.ok = false
		return false
	}
	switch c := s.data[s.pos]; {
	case c == end:
		s.pos++
		r.depth--
		return false
	case i == 0:
		return true
	case c == ',':
		s.pos++
		s.skipSpace()
		return true
	}
	s.ok = false
	return false
}

// Name reads a member's name and the colon after it.
func (r *Reader) Name() string {
	name, null := r.Str()
	s := &r.s
	s.skipSpace()
	if null || !s.ok || s.pos >= len(s.data) || s.data[s.pos] != ':' {
		s.ok = false
		return ""
	}
	s.pos++
	return name
}

// Str reads a string, or a null (null true); any other value stops the
// reader.
func (r *Reader) Str() (v string, null bool) {
	s := &r.s
	s.skipSpace()
	if !s.ok || s.pos >= len(s.data) {
		s.ok = false
		return "", false
	}
	switch s.data[s.pos] {
	case '"':
		start := s.pos
		end := s.str()
		if !s.ok {
			return "", false
		}
		if end < 0 {
			return s.grown[-1-end], false
		}
		return r.text[start+1 : end], false
	case 'n':
		s.literal("null")
		return "", true
	}
	s.ok = false
	return "", false
}

// Null reads a null, if that is what comes next, and reports whether it
// was; anything else is left to read.
func (r *Reader) Null() bool {
	s := &r.s
	s.skipSpace()
	if !s.ok || s.pos >= len(s.data) || s.data[s.pos] != 'n' {
		return false
	}
	s.literal("null")
	return s.ok
}

// Offset returns how many bytes of the document have been read.
func (r *Reader) Offset() int { return r.s.pos }

// Value reads one value of any kind and returns it indexed, as [Parse]
// would, for a [Decoder]. Its strings are slices of the reader's copy; the
// Value and what a Decoder makes of it are good until the next call of
// Value, which reuses its index. An error about it has a path relative to
// it.
func (r *Reader) Value() (Value, bool) {
	s := &r.s
	s.skipSpace()
	if !s.ok {
		return Value{}, false
	}
	s.nodes = s.nodes[:0]
	s.value(r.depth)
	if !s.ok {
		return Value{}, false
	}
	doc := &document{data: s.data, text: r.text, grown: s.grown, nodes: s.nodes}
	return Value{doc: doc, n: &doc.nodes[0]}, true
}

// End reports whether the reading is at the end of the document, with
// nothing but whitespace after the value read.
func (r *Reader) End() bool {
	r.s.skipSpace()
	return r.s.ok && r.s.pos == len(r.s.data)
}
