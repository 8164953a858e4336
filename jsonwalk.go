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

// MaxSafeInteger is the largest integer a JSON peer written in JavaScript
// represents exactly (2^53-1): the protocol's bound on timestamps and token
// counts.
const MaxSafeInteger = 1<<53 - 1

// Decoder holds the state of one decoding: its mode and its first error.
type Decoder struct {
	// Strict rejects keys the protocol does not describe.
	Strict bool
	err    *InputError
}

// Value is one JSON Value of a document, or an absent member (n nil),
// with what names it: its parent object or array and its name or index.
type Value struct {
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
	v     Value
	array bool
}

// Path spells out v's JSON Path.
func (v Value) Path() string {
	if v.parent == nil {
		return ""
	}
	if v.parent.array {
		return IndexPath(v.parent.v.Path(), v.idx)
	}
	return MemberPath(v.parent.v.Path(), v.name)
}

// Raw returns v's bytes.
func (v Value) Raw() []byte { return v.doc.data[v.n.start:v.n.end] }

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

// Parse scans data, which must be a single JSON value.
func Parse(data []byte) (Value, *InputError) {
	doc, ok := scan(data)
	if !ok {
		return Value{}, syntaxError(data)
	}
	return Value{doc: doc, n: &doc.nodes[0]}, nil
}

// ParseObject scans data, which must be a single JSON object.
func ParseObject(data []byte) (Value, *InputError) {
	v, err := Parse(data)
	if err != nil {
		return Value{}, err
	}
	if k := v.Kind(); k != "object" {
		return Value{}, &InputError{Reason: "expected a JSON object, got " + k, Malformed: true}
	}
	return v, nil
}

// Kind names the JSON type of v as error messages spell it.
func (v Value) Kind() string {
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

func (v Value) IsNull() bool { return v.n != nil && v.n.kind == 'n' }

// MemberPath returns the path of member name of an object at path.
func MemberPath(path, name string) string {
	if !isIdentifier(name) {
		return path + "[" + strconv.Quote(name) + "]"
	}
	if path == "" {
		return name
	}
	return path + "." + name
}

// IndexPath returns the path of element i of an array at path.
func IndexPath(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

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

// Fail records the first error.
func (d *Decoder) Fail(path, format string, args ...any) {
	if d.err == nil {
		d.err = &InputError{Field: path, Reason: fmt.Sprintf(format, args...)}
	}
}

// FailAt records the first error, at v.
func (d *Decoder) FailAt(v Value, format string, args ...any) {
	if d.err == nil {
		d.Fail(v.Path(), format, args...)
	}
}

// FailType records that v is not of the wanted JSON type.
func (d *Decoder) FailType(v Value, want string) {
	d.FailAt(v, "expected %s, got %s", want, v.Kind())
}

// Str decodes a string value.
func (d *Decoder) Str(v Value) string {
	if v.n == nil || v.n.kind != '"' {
		d.FailType(v, "string")
		return ""
	}
	return v.doc.stringValue(v.n)
}

// Array decodes an Array into its elements.
func (d *Decoder) Array(v Value) []Value {
	if v.n == nil || v.n.kind != '[' {
		d.FailType(v, "array")
		return nil
	}
	return d.elements(&container{v: v, array: true})
}

// elements lists the elements of the array c.
func (d *Decoder) elements(c *container) []Value {
	v := c.v
	nodes := v.doc.nodes
	i := v.i + 1
	end := v.n.next
	count := 0
	for j := i; j < end; j = nodes[j].next {
		count++
	}
	out := make([]Value, 0, count)
	for j := i; j < end; j = nodes[j].next {
		out = append(out, Value{doc: v.doc, n: &nodes[j], i: j, parent: c, idx: len(out)})
	}
	return out
}

// Strings decodes an array of Strings; it never returns nil for an array.
func (d *Decoder) Strings(v Value) []string {
	elems := d.Array(v)
	out := make([]string, 0, len(elems))
	for _, e := range elems {
		out = append(out, d.Str(e))
	}
	return out
}

// Integer decodes a number that must be an Integer in [lo, hi]. A number
// written with a fraction or exponent counts when its value is integral,
// as JavaScript's JSON.parse sees it.
func (d *Decoder) Integer(v Value, lo, hi int64) int64 {
	if v.n == nil || v.n.kind != '0' {
		d.FailType(v, "integer")
		return 0
	}
	text := string(v.Raw())
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(text, 64)
		if ferr != nil || f != math.Trunc(f) || math.Abs(f) > MaxSafeInteger {
			if ferr == nil && f == math.Trunc(f) {
				d.FailAt(v, "integer %s out of range", text)
			} else {
				d.FailAt(v, "expected integer, got %s", text)
			}
			return 0
		}
		n = int64(f)
	}
	if n < lo || n > hi {
		d.FailAt(v, "integer %s out of range [%d, %d]", text, lo, hi)
		return 0
	}
	return n
}

// Opaque returns v as compact JSON: what the protocol passes through
// without reading (state, payloads, results). Compacting keeps a value
// that arrived with line breaks from breaking SSE framing when re-sent.
func (d *Decoder) Opaque(v Value) json.RawMessage {
	if v.n.plain || (v.n.kind != '{' && v.n.kind != '[') {
		return bytes.Clone(v.Raw())
	}
	var buf bytes.Buffer
	buf.Grow(int(v.n.end - v.n.start))
	if err := json.Compact(&buf, v.Raw()); err != nil {
		d.FailAt(v, "invalid JSON value: %v", err)
		return nil
	}
	return json.RawMessage(buf.Bytes())
}

// AnyObject decodes a JSON object into a map of plain Go values, numbers
// as json.Number so that they re-encode digit for digit.
func (d *Decoder) AnyObject(v Value) map[string]any {
	if v.n == nil || v.n.kind != '{' {
		d.FailType(v, "object")
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

// Object is a JSON Object being decoded. Getters mark the names they ask
// for as known, so that finish can reject the rest in strict mode.
type Object struct {
	d *Decoder
	c container
	// first and end bound the object's member nodes; empty on a type
	// error.
	first, end int32
	// known marks, by member ordinal, the members a getter asked for.
	known []bool
}

// Object opens v as an Object. On a type error it records the error and
// returns an empty Object, whose getters then only return zero values.
func (d *Decoder) Object(v Value) *Object {
	o := &Object{d: d, c: container{v: v}}
	if v.n == nil || v.n.kind != '{' {
		d.FailType(v, "object")
		return o
	}
	o.first = v.i + 1
	o.end = v.n.next
	return o
}

// Path spells out the object's JSON Path.
func (o *Object) Path() string { return o.c.v.Path() }

// nameIs reports whether the name node k spells name.
func (o *Object) nameIs(k *node, name string) bool {
	doc := o.c.v.doc
	if k.plain {
		return string(doc.data[k.start+1:k.end-1]) == name
	}
	return doc.stringValue(k) == name
}

// Get returns the member name, present or not, and marks name as known.
// A repeated name reads as its last value, as JSON.parse does.
func (o *Object) Get(name string) (Value, bool) {
	v := Value{doc: o.c.v.doc, parent: &o.c, name: name}
	if o.first == o.end {
		return v, false
	}
	nodes := v.doc.nodes
	ord := 0
	for k := o.first; k < o.end; k = nodes[k+1].next {
		if o.nameIs(&nodes[k], name) {
			v.n, v.i = &nodes[k+1], k+1
			if o.d.Strict {
				o.mark(ord)
			}
		}
		ord++
	}
	return v, v.n != nil
}

func (o *Object) mark(ord int) {
	if ord >= len(o.known) {
		o.known = append(o.known, make([]bool, ord+1-len(o.known))...)
	}
	o.known[ord] = true
}

// Optional returns the member name unless it is absent or null: the
// protocol's Optional fields read a null as absent.
func (o *Object) Optional(name string) (Value, bool) {
	v, ok := o.Get(name)
	if !ok || v.IsNull() {
		return Value{}, false
	}
	return v, true
}

// Required returns the member name, recording an error when it is absent.
func (o *Object) Required(name string) (Value, bool) {
	v, ok := o.Get(name)
	if !ok {
		o.d.FailAt(v, "required")
	}
	return v, ok
}

// Str returns a required string member.
func (o *Object) Str(name string) string {
	if v, ok := o.Required(name); ok {
		return o.d.Str(v)
	}
	return ""
}

// OptStr returns an optional string member, "" when absent.
func (o *Object) OptStr(name string) string {
	if v, ok := o.Optional(name); ok {
		return o.d.Str(v)
	}
	return ""
}

// Member returns a required or an optional Member (see required and
// optional).
func (o *Object) Member(name string, required bool) (Value, bool) {
	if required {
		return o.Required(name)
	}
	return o.Optional(name)
}

// Enum returns a string member that must be one of allowed, "" when an
// optional one is absent; what names the value in the error ("role").
func (o *Object) Enum(name string, required bool, what string, allowed ...string) string {
	v, ok := o.Member(name, required)
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
	s := o.d.Str(v)
	for _, a := range allowed {
		if s == a {
			return a
		}
	}
	o.d.FailAt(v, "unknown %s %q", what, s)
	return ""
}

// RawValue returns a required member that may be any JSON, null included
// (STATE_SNAPSHOT.snapshot, RAW.event, CUSTOM.value, patch values).
func (o *Object) RawValue(name string) json.RawMessage {
	if v, ok := o.Required(name); ok {
		return o.d.Opaque(v)
	}
	return nil
}

// OptRaw returns an optional member that may be any JSON but null, or a
// nil interface when it is absent or null. It returns any, not
// json.RawMessage, so that an absent value is a nil interface.
func (o *Object) OptRaw(name string) any {
	if v, ok := o.Optional(name); ok {
		if r := o.d.Opaque(v); r != nil {
			return r
		}
	}
	return nil
}

// OptMap returns an optional object member as a map, nil when absent.
func (o *Object) OptMap(name string) map[string]any {
	if v, ok := o.Optional(name); ok {
		return o.d.AnyObject(v)
	}
	return nil
}

// OptBool returns an optional boolean member, nil when absent.
func (o *Object) OptBool(name string) *bool {
	v, ok := o.Optional(name)
	if !ok {
		return nil
	}
	if v.n.kind != 't' && v.n.kind != 'f' {
		o.d.FailType(v, "boolean")
		return nil
	}
	return new(v.n.kind == 't')
}

// OptInt returns an optional integer member in [lo, hi], nil when absent.
func (o *Object) OptInt(name string, lo, hi int64) *int64 {
	if v, ok := o.Optional(name); ok {
		n := o.d.Integer(v, lo, hi)
		return &n
	}
	return nil
}

// Array returns the elements of an array member. An optional array that is
// absent or null returns nil; a present array returns a non-nil slice.
func (o *Object) Array(name string, required bool) []Value {
	if v, ok := o.Member(name, required); ok {
		return o.d.Array(v)
	}
	return nil
}

// OptStrings returns an optional array of strings, nil when absent.
func (o *Object) OptStrings(name string) []string {
	if v, ok := o.Optional(name); ok {
		return o.d.Strings(v)
	}
	return nil
}

// Object opens a member as an object; ok is false when it is absent (or null
// and optional).
func (o *Object) Object(name string, required bool) (*Object, bool) {
	if v, ok := o.Member(name, required); ok {
		return o.d.Object(v), true
	}
	return nil, false
}

// Finish rejects, in strict mode, the first member in document order that
// no getter asked for.
func (o *Object) Finish() {
	if !o.d.Strict || o.d.err != nil {
		return
	}
	nodes := o.c.v.doc.nodes
	ord := 0
	for k := o.first; k < o.end; k = nodes[k+1].next {
		if ord >= len(o.known) || !o.known[ord] {
			name := o.c.v.doc.stringValue(&nodes[k])
			// A repeated name is known when any of its members is.
			if !o.knownName(name) {
				o.d.Fail(MemberPath(o.Path(), name), "unknown field")
				return
			}
		}
		ord++
	}
}

// knownName reports whether a member named name was asked for.
func (o *Object) knownName(name string) bool {
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
