package agui

// This file is the JSON walker behind DecodeEvent, DecodeInput and
// DecodeMessage. encoding/json checks the syntax once; the walker then
// visits the document object by object, in the order of the protocol's
// schemas, so that every error names the JSON path of the value at fault.
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

// value is one JSON value of the document and the path that names it.
type value struct {
	raw  json.RawMessage
	path string
}

// parseDocument checks that data is a single JSON object.
func parseDocument(data []byte) (value, *InputError) {
	if !json.Valid(data) {
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
		return value{}, &InputError{Reason: reason, Malformed: true}
	}
	v := value{raw: data}
	if k := v.kind(); k != "object" {
		return value{}, &InputError{Reason: "expected a JSON object, got " + k, Malformed: true}
	}
	return v, nil
}

// kind names the JSON type of v as error messages spell it.
func (v value) kind() string {
	b := bytes.TrimLeft(v.raw, " \t\r\n")
	if len(b) == 0 {
		return "nothing"
	}
	switch b[0] {
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

func (v value) isNull() bool { return v.kind() == "null" }

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

// failType records that v is not of the wanted JSON type.
func (d *decoder) failType(v value, want string) {
	d.fail(v.path, "expected %s, got %s", want, v.kind())
}

// str decodes a string value.
func (d *decoder) str(v value) string {
	if v.kind() != "string" {
		d.failType(v, "string")
		return ""
	}
	var s string
	if err := json.Unmarshal(v.raw, &s); err != nil {
		d.fail(v.path, "invalid string: %v", err)
	}
	return s
}

// array decodes an array into its elements.
func (d *decoder) array(v value) []value {
	if v.kind() != "array" {
		d.failType(v, "array")
		return nil
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(v.raw, &raws); err != nil {
		d.fail(v.path, "invalid array: %v", err)
		return nil
	}
	out := make([]value, len(raws))
	for i, r := range raws {
		out[i] = value{raw: r, path: index(v.path, i)}
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
	if v.kind() != "number" {
		d.failType(v, "integer")
		return 0
	}
	text := string(bytes.TrimSpace(v.raw))
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(text, 64)
		if ferr != nil || f != math.Trunc(f) || math.Abs(f) > maxSafeInteger {
			if ferr == nil && f == math.Trunc(f) {
				d.fail(v.path, "integer %s out of range", text)
			} else {
				d.fail(v.path, "expected integer, got %s", text)
			}
			return 0
		}
		n = int64(f)
	}
	if n < lo || n > hi {
		d.fail(v.path, "integer %s out of range [%d, %d]", text, lo, hi)
		return 0
	}
	return n
}

// opaque returns v as compact JSON: what the protocol passes through
// without reading (state, payloads, results). Compacting keeps a value
// that arrived with line breaks from breaking SSE framing when re-sent.
func (d *decoder) opaque(v value) json.RawMessage {
	var buf bytes.Buffer
	if err := json.Compact(&buf, v.raw); err != nil {
		d.fail(v.path, "invalid JSON value: %v", err)
		return nil
	}
	return json.RawMessage(buf.Bytes())
}

// anyObject decodes a JSON object into a map of plain Go values, numbers
// as json.Number so that they re-encode digit for digit.
func (d *decoder) anyObject(v value) map[string]any {
	if v.kind() != "object" {
		d.failType(v, "object")
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(v.raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		d.fail(v.path, "invalid object: %v", err)
		return nil
	}
	return m
}

// object is a JSON object being decoded. Getters mark the names they ask
// for as known, so that finish can reject the rest in strict mode.
type object struct {
	d     *decoder
	path  string
	keys  []string // document order, each name once
	vals  map[string]json.RawMessage
	known map[string]bool
}

// object opens v as an object. On a type error it records the error and
// returns an empty object, whose getters then only return zero values.
func (d *decoder) object(v value) *object {
	o := &object{d: d, path: v.path, vals: map[string]json.RawMessage{}, known: map[string]bool{}}
	if v.kind() != "object" {
		d.failType(v, "object")
		return o
	}
	dec := json.NewDecoder(bytes.NewReader(v.raw))
	if _, err := dec.Token(); err != nil {
		d.fail(v.path, "invalid object: %v", err)
		return o
	}
	for dec.More() {
		t, err := dec.Token()
		name, ok := t.(string)
		if err != nil || !ok {
			d.fail(v.path, "invalid object key")
			return o
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			d.fail(key(v.path, name), "invalid value: %v", err)
			return o
		}
		// A repeated name keeps its last value, as JSON.parse does.
		if _, dup := o.vals[name]; !dup {
			o.keys = append(o.keys, name)
		}
		o.vals[name] = raw
	}
	return o
}

// get returns the member name, present or not, and marks name as known.
func (o *object) get(name string) (value, bool) {
	o.known[name] = true
	raw, ok := o.vals[name]
	return value{raw: raw, path: key(o.path, name)}, ok
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
		o.d.fail(v.path, "required")
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
	s := o.d.str(v)
	for _, a := range allowed {
		if s == a {
			return s
		}
	}
	o.d.fail(v.path, "unknown %s %q", what, s)
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
	if v.kind() != "boolean" {
		o.d.failType(v, "boolean")
		return nil
	}
	return Bool(bytes.HasPrefix(bytes.TrimSpace(v.raw), []byte("true")))
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
	if !o.d.strict {
		return
	}
	for _, k := range o.keys {
		if !o.known[k] {
			o.d.fail(key(o.path, k), "unknown field")
			return
		}
	}
}
