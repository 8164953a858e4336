package jsonx

import "encoding/json"

// Object is a JSON object being read by a [Decoder], member by member.
// Its getters follow the conventions of schema-described JSON: an optional
// member that is absent or null reads as absent, a required one that is
// absent is an error ("required"), and a repeated name reads as its last
// value, as JSON.parse does. Getters mark the names they ask for as known,
// so that [Object.Finish] can reject the rest when the decoder is
// [Decoder.Strict].
//
// An Object belongs to its Decoder and shares its goroutine.
type Object struct {
	d *Decoder
	c container
	// first and end bound the object's member nodes; empty on a type
	// error.
	first, end int32
	// names has the [nameBit] of each member's name set: a getter asking
	// for a name whose bit is clear knows it absent without looking.
	// Most of the getters of a message ask for optional members that are
	// absent, and looking through the members for each was a tenth of a
	// long thread's decoding (issue 26).
	names uint64
	// known marks, by member ordinal, the members a getter asked for.
	known []bool
}

// nameBit is the bit of a member's name in [Object].names, from its
// length and first byte: the names of a schema's object rarely share one.
func nameBit(name string) uint64 {
	if name == "" {
		return 1
	}
	return 1 << ((uint(len(name)) + 3*uint(name[0])) & 63)
}

// Object opens v as an object. When v is not one it records the error and
// returns an empty Object, whose getters then only return zero values.
func (d *Decoder) Object(v Value) *Object {
	o := d.objects.New(hint)
	*o = Object{d: d, c: container{v: v}}
	if v.n == nil || v.n.kind != '{' {
		d.FailType(v, "object")
		return o
	}
	o.first = v.i + 1
	o.end = v.n.next
	nodes := v.doc.nodes
	for k := o.first; k < o.end; k = nodes[k+1].next {
		o.names |= nameBit(v.doc.stringValue(&nodes[k]))
	}
	return o
}

// Path spells out the object's JSON path (see [Value.Path]).
func (o *Object) Path() string { return o.c.v.Path() }

// nameIs reports whether the name node k spells name.
func (o *Object) nameIs(k *node, name string) bool {
	return o.c.v.doc.stringValue(k) == name
}

// Get returns the member name and whether it is present, and marks name as
// known. An absent member is still a [Value], so that an error about it
// names its path.
func (o *Object) Get(name string) (Value, bool) {
	i := o.find(name)
	v := Value{doc: o.c.v.doc, parent: &o.c, name: name}
	if i != 0 {
		v.n, v.i = &v.doc.nodes[i], i
	}
	return v, i != 0
}

// find returns the index of the node of the member name's value, 0 when
// it is absent (node 0 is the root, never a member), and marks name as
// known. The getters of strings read through find and build a [Value]
// only for an error: a Value apiece, copied through the layers of
// getters, was a fifth of a long thread's decoding (issue 26).
func (o *Object) find(name string) int32 {
	if o.names&nameBit(name) == 0 {
		return 0
	}
	nodes := o.c.v.doc.nodes
	var found int32
	ord := 0
	for k := o.first; k < o.end; k = nodes[k+1].next {
		if o.nameIs(&nodes[k], name) {
			found = k + 1
			if o.d.Strict {
				o.mark(ord)
			}
		}
		ord++
	}
	return found
}

// str returns the string value of the member name when it is present
// and a string (ok), or when it is absent or null (!present).
func (o *Object) str(name string) (s string, present, ok bool) {
	i := o.find(name)
	if i == 0 {
		return "", false, false
	}
	doc := o.c.v.doc
	switch n := &doc.nodes[i]; n.kind {
	case '"':
		return doc.stringValue(n), true, true
	case 'n':
		return "", false, false
	}
	return "", true, false
}

// mark records that a getter asked for the member with ordinal ord.
func (o *Object) mark(ord int) {
	if ord >= len(o.known) {
		o.known = append(o.known, make([]bool, ord+1-len(o.known))...)
	}
	o.known[ord] = true
}

// Optional returns the member name unless it is absent or null: an
// optional member holding null reads as absent.
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

// Str returns the required string member name (see [Decoder.Str]).
func (o *Object) Str(name string) string {
	if s, _, ok := o.str(name); ok {
		return s
	}
	// Absent, null or not a string: the error.
	if v, ok := o.Required(name); ok {
		return o.d.Str(v)
	}
	return ""
}

// OptStr returns the optional string member name, "" when absent.
func (o *Object) OptStr(name string) string {
	if s, present, ok := o.str(name); ok || !present {
		return s
	}
	if v, ok := o.Optional(name); ok {
		return o.d.Str(v) // the error
	}
	return ""
}

// Member returns the member name through [Object.Required] or
// [Object.Optional].
func (o *Object) Member(name string, required bool) (Value, bool) {
	if required {
		return o.Required(name)
	}
	return o.Optional(name)
}

// Enum returns the string member name, which must be one of allowed, or
// "" when an optional one is absent. The error for any other string is
// `unknown <what> "<value>"`. The string returned is the allowed one, which
// keeps no document alive.
func (o *Object) Enum(name string, required bool, what string, allowed ...string) string {
	if s, _, ok := o.str(name); ok {
		for _, a := range allowed {
			if s == a {
				return a
			}
		}
	}
	// Absent, null, not a string or not allowed: the error, if any.
	v, ok := o.Member(name, required)
	if !ok {
		return ""
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

// RawValue returns the required member name, which may be any JSON, null
// included, as compact JSON (see [Decoder.Opaque]).
func (o *Object) RawValue(name string) json.RawMessage {
	if v, ok := o.Required(name); ok {
		return o.d.Opaque(v)
	}
	return nil
}

// OptRaw returns the optional member name, which may be any JSON, as a
// compact json.RawMessage, or a nil interface when it is absent or null.
// It returns any, not json.RawMessage, so that an absent value is a nil
// interface.
func (o *Object) OptRaw(name string) any {
	v, _ := o.Get(name)
	return o.d.OptRaw(v)
}

// OptMap returns the optional object member name as [Decoder.AnyObject]
// does, nil when absent.
func (o *Object) OptMap(name string) map[string]any {
	if v, ok := o.Optional(name); ok {
		return o.d.AnyObject(v)
	}
	return nil
}

// OptBool returns the optional boolean member name, nil when absent.
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

// OptInt returns the optional integer member name, which must be in
// [lo, hi] (see [Decoder.Integer]), nil when absent.
func (o *Object) OptInt(name string, lo, hi int64) *int64 {
	if v, ok := o.Optional(name); ok {
		n := o.d.Integer(v, lo, hi)
		return &n
	}
	return nil
}

// Array returns the elements of the array member name (see
// [Decoder.Array]). An optional array that is absent or null returns nil;
// a present array returns a non-nil slice.
func (o *Object) Array(name string, required bool) []Value {
	if v, ok := o.Member(name, required); ok {
		return o.d.Array(v)
	}
	return nil
}

// OptStrings returns the optional array of strings name, nil when absent.
func (o *Object) OptStrings(name string) []string {
	if v, ok := o.Optional(name); ok {
		return o.d.Strings(v)
	}
	return nil
}

// Object opens the member name as an object (see [Decoder.Object]); ok is
// false when it is absent, or null and optional.
func (o *Object) Object(name string, required bool) (*Object, bool) {
	if v, ok := o.Member(name, required); ok {
		return o.d.Object(v), true
	}
	return nil, false
}

// Finish ends the reading of the object. When the decoder is
// [Decoder.Strict] and no error is recorded yet, it records one for the
// first member, in document order, that no getter asked for: "<path>:
// unknown field". Values read as a whole (through [Decoder.Opaque] or
// [Decoder.AnyObject]) are not looked into.
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
