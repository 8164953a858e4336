package agui

// This file is the JSON walker behind DecodeEvent, DecodeInput and
// DecodeMessage. One pass (scan) checks the syntax and indexes the
// document; the walker then visits the indexed values object by object, in
// the order of the protocol's schemas, reading each from its bytes, so
// that every error names the JSON path of the value at fault. Paths are
// only spelled out for an error.
// The first error sticks and later checks become no-ops, which keeps the
// per-type decoders free of error plumbing.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
)

// maxSafeInteger is the largest integer a JSON peer written in JavaScript
// represents exactly (2^53-1): the protocol's bound on timestamps and token
// counts.
const maxSafeInteger = 1<<53 - 1

// decoder holds the state of one decoding: its mode and its first error.
type decoder struct {
	// strict rejects keys the protocol does not describe.
	strict bool
	err    *InputError
}

// value is one JSON value of a document, or an absent member (n nil),
// with what names it: its parent object or array and its name or index.
type value struct {
	doc *document
	n   *node
	i   int32 // n's index in doc.nodes
	// parent is the object or array holding the value; nil for the root.
	parent *container
	name   string // the member name, when parent is an object
	idx    int    // the element index, when parent is an array
}

// container is the path of an object or array: how its members' paths
// start.
type container struct {
	v     value
	array bool
}

// path spells out v's JSON path.
func (v value) path() string {
	if v.parent == nil {
		return ""
	}
	if v.parent.array {
		return index(v.parent.v.path(), v.idx)
	}
	return key(v.parent.v.path(), v.name)
}

// raw returns v's bytes.
func (v value) raw() []byte { return v.doc.data[v.n.start:v.n.end] }

// syntaxError returns the error for data that is not valid JSON, worded
// as encoding/json words it.
func syntaxError(data []byte) *InputError {
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
	return &InputError{Reason: reason, Malformed: true}
}

// parseValue scans data, which must be a single JSON value.
func parseValue(data []byte) (value, *InputError) {
	doc, ok := scan(data)
	if !ok {
		return value{}, syntaxError(data)
	}
	return value{doc: doc, n: &doc.nodes[0]}, nil
}

// parseDocument scans data, which must be a single JSON object.
func parseDocument(data []byte) (value, *InputError) {
	v, err := parseValue(data)
	if err != nil {
		return value{}, err
	}
	if k := v.kind(); k != "object" {
		return value{}, &InputError{Reason: "expected a JSON object, got " + k, Malformed: true}
	}
	return v, nil
}

// kind names the JSON type of v as error messages spell it.
func (v value) kind() string {
	if v.n == nil {
		return "nothing"
	}
	switch v.n.kind {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	default:
		return "number"
	}
}

func (v value) isNull() bool { return v.n != nil && v.n.kind == 'n' }

// key returns the path of member name of an object at path.
func key(path, name string) string {
	if !isIdentifier(name) {
		return path + "[" + strconv.Quote(name) + "]"
	}
	if path == "" {
		return name
	}
	return path + "." + name
}

// index returns the path of element i of an array at path.
func index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		letter := r == '_' || r == '$' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		if !letter && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// fail records the first error.
func (d *decoder) fail(path, format string, args ...any) {
	if d.err == nil {
		d.err = &InputError{Field: path, Reason: fmt.Sprintf(format, args...)}
	}
}

// failAt records the first error, at v.
func (d *decoder) failAt(v value, format string, args ...any) {
	if d.err == nil {
		d.fail(v.path(), format, args...)
	}
}

// failType records that v is not of the wanted JSON type.
func (d *decoder) failType(v value, want string) {
	d.failAt(v, "expected %s, got %s", want, v.kind())
}

// str decodes a string value.
func (d *decoder) str(v value) string {
	if v.n == nil || v.n.kind != '"' {
		d.failType(v, "string")
		return ""
	}
	return v.doc.stringValue(v.n)
}

// array decodes an array into its elements.
func (d *decoder) array(v value) []value {
	if v.n == nil || v.n.kind != '[' {
		d.failType(v, "array")
		return nil
	}
	return d.elements(&container{v: v, array: true})
}

// elements lists the elements of the array c.
func (d *decoder) elements(c *container) []value {
	v := c.v
	nodes := v.doc.nodes
	i := v.i + 1
	end := v.n.next
	count := 0
	for j := i; j < end; j = nodes[j].next {
		count++
	}
	out := make([]value, 0, count)
	for j := i; j < end; j = nodes[j].next {
		out = append(out, value{doc: v.doc, n: &nodes[j], i: j, parent: c, idx: len(out)})
	}
	return out
}

// strings decodes an array of strings; it never returns nil for an array.
func (d *decoder) strings(v value) []string {
	elems := d.array(v)
	out := make([]string, 0, len(elems))
	for _, e := range elems {
		out = append(out, d.str(e))
	}
	return out
}

// integer decodes a number that must be an integer in [lo, hi]. A number
// written with a fraction or exponent counts when its value is integral,
// as JavaScript's JSON.parse sees it.
func (d *decoder) integer(v value, lo, hi int64) int64 {
	if v.n == nil || v.n.kind != '0' {
		d.failType(v, "integer")
		return 0
	}
	text := string(v.raw())
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(text, 64)
		if ferr != nil || f != math.Trunc(f) || math.Abs(f) > maxSafeInteger {
			if ferr == nil && f == math.Trunc(f) {
				d.failAt(v, "integer %s out of range", text)
			} else {
				d.failAt(v, "expected integer, got %s", text)
			}
			return 0
		}
		n = int64(f)
	}
	if n < lo || n > hi {
		d.failAt(v, "integer %s out of range [%d, %d]", text, lo, hi)
		return 0
	}
	return n
}

// opaque returns v as compact JSON: what the protocol passes through
// without reading (state, payloads, results). Compacting keeps a value
// that arrived with line breaks from breaking SSE framing when re-sent.
func (d *decoder) opaque(v value) json.RawMessage {
	if v.n.plain || (v.n.kind != '{' && v.n.kind != '[') {
		return bytes.Clone(v.raw())
	}
	var buf bytes.Buffer
	buf.Grow(int(v.n.end - v.n.start))
	if err := json.Compact(&buf, v.raw()); err != nil {
		d.failAt(v, "invalid JSON value: %v", err)
		return nil
	}
	return json.RawMessage(buf.Bytes())
}

// anyObject decodes a JSON object into a map of plain Go values, numbers
// as json.Number so that they re-encode digit for digit.
func (d *decoder) anyObject(v value) map[string]any {
	if v.n == nil || v.n.kind != '{' {
		d.failType(v, "object")
		return nil
	}
	m, _ := v.doc.plainValue(v.i).(map[string]any)
	return m
}

// plainValue returns node i as encoding/json decodes it into an any with
// UseNumber: maps, slices, strings, json.Number, bools and nil. A repeated
// name keeps its last value.
func (doc *document) plainValue(i int32) any {
	n := &doc.nodes[i]
	switch n.kind {
	case '{':
		m := make(map[string]any)
		for j := i + 1; j < n.next; j = doc.nodes[j+1].next {
			m[doc.stringValue(&doc.nodes[j])] = doc.plainValue(j + 1)
		}
		return m
	case '[':
		out := make([]any, 0)
		for j := i + 1; j < n.next; j = doc.nodes[j].next {
			out = append(out, doc.plainValue(j))
		}
		return out
	case '"':
		return doc.stringValue(n)
	case '0':
		return json.Number(doc.data[n.start:n.end])
	case 't':
		return true
	case 'f':
		return false
	}
	return nil
}

// object is a JSON object being decoded. Getters mark the names they ask
// for as known, so that finish can reject the rest in strict mode.
type object struct {
	d *decoder
	c container
	// first and end bound the object's member nodes; empty on a type
	// error.
	first, end int32
	// known marks, by member ordinal, the members a getter asked for.
	known []bool
}

// object opens v as an object. On a type error it records the error and
// returns an empty object, whose getters then only return zero values.
func (d *decoder) object(v value) *object {
	o := &object{d: d, c: container{v: v}}
	if v.n == nil || v.n.kind != '{' {
		d.failType(v, "object")
		return o
	}
	o.first = v.i + 1
	o.end = v.n.next
	return o
}

// path spells out the object's JSON path.
func (o *object) path() string { return o.c.v.path() }

// nameIs reports whether the name node k spells name.
func (o *object) nameIs(k *node, name string) bool {
	doc := o.c.v.doc
	if k.plain {
		return string(doc.data[k.start+1:k.end-1]) == name
	}
	return doc.stringValue(k) == name
}

// get returns the member name, present or not, and marks name as known.
// A repeated name reads as its last value, as JSON.parse does.
func (o *object) get(name string) (value, bool) {
	v := value{doc: o.c.v.doc, parent: &o.c, name: name}
	if o.first == o.end {
		return v, false
	}
	nodes := v.doc.nodes
	ord := 0
	for k := o.first; k < o.end; k = nodes[k+1].next {
		if o.nameIs(&nodes[k], name) {
			v.n, v.i = &nodes[k+1], k+1
			if o.d.strict {
				o.mark(ord)
			}
		}
		ord++
	}
	return v, v.n != nil
}

func (o *object) mark(ord int) {
	if ord >= len(o.known) {
		o.known = append(o.known, make([]bool, ord+1-len(o.known))...)
	}
	o.known[ord] = true
}

// optional returns the member name unless it is absent or null: the
// protocol's optional fields read a null as absent.
func (o *object) optional(name string) (value, bool) {
	v, ok := o.get(name)
	if !ok || v.isNull() {
		return value{}, false
	}
	return v, true
}

// required returns the member name, recording an error when it is absent.
func (o *object) required(name string) (value, bool) {
	v, ok := o.get(name)
	if !ok {
		o.d.failAt(v, "required")
	}
	return v, ok
}

// str returns a required string member.
func (o *object) str(name string) string {
	if v, ok := o.required(name); ok {
		return o.d.str(v)
	}
	return ""
}

// optStr returns an optional string member, "" when absent.
func (o *object) optStr(name string) string {
	if v, ok := o.optional(name); ok {
		return o.d.str(v)
	}
	return ""
}

// member returns a required or an optional member (see required and
// optional).
func (o *object) member(name string, required bool) (value, bool) {
	if required {
		return o.required(name)
	}
	return o.optional(name)
}

// enum returns a string member that must be one of allowed, "" when an
// optional one is absent; what names the value in the error ("role").
func (o *object) enum(name string, required bool, what string, allowed ...string) string {
	v, ok := o.member(name, required)
	if !ok {
		return ""
	}
	if v.n.kind == '"' && v.n.plain {
		// The common case: compare the bytes, and return the allowed
		// string itself, without allocating.
		b := v.doc.data[v.n.start+1 : v.n.end-1]
		for _, a := range allowed {
			if string(b) == a {
				return a
			}
		}
	}
	s := o.d.str(v)
	for _, a := range allowed {
		if s == a {
			return a
		}
	}
	o.d.failAt(v, "unknown %s %q", what, s)
	return ""
}

// rawValue returns a required member that may be any JSON, null included
// (STATE_SNAPSHOT.snapshot, RAW.event, CUSTOM.value, patch values).
func (o *object) rawValue(name string) json.RawMessage {
	if v, ok := o.required(name); ok {
		return o.d.opaque(v)
	}
	return nil
}

// optRaw returns an optional member that may be any JSON but null, or a
// nil interface when it is absent or null. It returns any, not
// json.RawMessage, so that an absent value is a nil interface.
func (o *object) optRaw(name string) any {
	if v, ok := o.optional(name); ok {
		if r := o.d.opaque(v); r != nil {
			return r
		}
	}
	return nil
}

// optMap returns an optional object member as a map, nil when absent.
func (o *object) optMap(name string) map[string]any {
	if v, ok := o.optional(name); ok {
		return o.d.anyObject(v)
	}
	return nil
}

// optBool returns an optional boolean member, nil when absent.
func (o *object) optBool(name string) *bool {
	v, ok := o.optional(name)
	if !ok {
		return nil
	}
	if v.n.kind != 't' && v.n.kind != 'f' {
		o.d.failType(v, "boolean")
		return nil
	}
	return new(v.n.kind == 't')
}

// optInt returns an optional integer member in [lo, hi], nil when absent.
func (o *object) optInt(name string, lo, hi int64) *int64 {
	if v, ok := o.optional(name); ok {
		n := o.d.integer(v, lo, hi)
		return &n
	}
	return nil
}

// arr returns the elements of an array member. An optional array that is
// absent or null returns nil; a present array returns a non-nil slice.
func (o *object) arr(name string, required bool) []value {
	if v, ok := o.member(name, required); ok {
		return o.d.array(v)
	}
	return nil
}

// optStrings returns an optional array of strings, nil when absent.
func (o *object) optStrings(name string) []string {
	if v, ok := o.optional(name); ok {
		return o.d.strings(v)
	}
	return nil
}

// obj opens a member as an object; ok is false when it is absent (or null
// and optional).
func (o *object) obj(name string, required bool) (*object, bool) {
	if v, ok := o.member(name, required); ok {
		return o.d.object(v), true
	}
	return nil, false
}

// finish rejects, in strict mode, the first member in document order that
// no getter asked for.
func (o *object) finish() {
	if !o.d.strict || o.d.err != nil {
		return
	}
	nodes := o.c.v.doc.nodes
	ord := 0
	for k := o.first; k < o.end; k = nodes[k+1].next {
		if ord >= len(o.known) || !o.known[ord] {
			name := o.c.v.doc.stringValue(&nodes[k])
			// A repeated name is known when any of its members is.
			if !o.knownName(name) {
				o.d.fail(key(o.path(), name), "unknown field")
				return
			}
		}
		ord++
	}
}

// knownName reports whether a member named name was asked for.
func (o *object) knownName(name string) bool {
	nodes := o.c.v.doc.nodes
	ord := 0
	for k := o.first; k < o.end; k = nodes[k+1].next {
		if ord < len(o.known) && o.known[ord] && o.nameIs(&nodes[k], name) {
			return true
		}
		ord++
	}
	return false
}
