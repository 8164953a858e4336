package jsonx

// This file is the path-tracking decoder: typed reads of the values of a
// parsed document, each of which records an error naming the JSON path of
// the value at fault. The first error sticks and later ones are dropped,
// which keeps the callers free of error plumbing: they check once, at the
// end.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// MaxSafeInteger is the largest integer a JSON peer written in JavaScript
// represents exactly (2^53-1, Number.MAX_SAFE_INTEGER): the usual bound to
// pass to [Decoder.Integer] and [Object.OptInt].
const MaxSafeInteger = 1<<53 - 1

// Decoder reads typed values out of a document from [Parse] or
// [ParseObject] and keeps the first error, as a [DecodeError] naming the
// path of the value at fault. Its zero value is ready to use and lenient;
// a Decoder is used by one goroutine at a time.
type Decoder struct {
	// Strict makes [Object.Finish] reject, as "unknown field", a member
	// that no getter asked for. The default, false, ignores such members.
	Strict bool
	err    *DecodeError
	// The handles a decoding makes, a few allocations for all of them.
	objects    Slab[Object]
	values     Slab[Value]
	containers Slab[container]
}

// hint is what a Decoder tells its slabs of the handles it may still
// make: unknown, so their chunks only double.
const hint = maxChunk

// Mark is a point in a [Decoder]'s reading, for [Decoder.Release].
type Mark struct{ objects, values, containers slabMark }

// Mark returns the point the decoder's reading has reached.
func (d *Decoder) Mark() Mark {
	return Mark{d.objects.mark(), d.values.mark(), d.containers.mark()}
}

// Release lets the decoder reuse the memory of the Objects and array
// elements it made since m, which the caller no longer uses: what was
// decoded through them is not affected. Releasing after each element of
// a long array keeps the handles of one element in memory rather than
// of all: they were two fifths of the bytes a long thread's decoding
// allocated (issue 26).
func (d *Decoder) Release(m Mark) {
	d.objects.release(m.objects)
	d.values.release(m.values)
	d.containers.release(m.containers)
}

// Err returns the first error recorded, or nil.
func (d *Decoder) Err() *DecodeError { return d.err }

// Fail records an error at path, its reason formatted as fmt.Sprintf
// formats it, unless an error is already recorded.
func (d *Decoder) Fail(path, format string, args ...any) {
	if d.err == nil {
		d.err = &DecodeError{Path: path, Reason: fmt.Sprintf(format, args...)}
	}
}

// FailAt is [Decoder.Fail] at the path of v.
func (d *Decoder) FailAt(v Value, format string, args ...any) {
	if d.err == nil {
		d.Fail(v.Path(), format, args...)
	}
}

// FailType records, at v, that v is not of the wanted JSON type, as
// "expected <want>, got <kind>" (see [Value.Kind]).
func (d *Decoder) FailType(v Value, want string) {
	d.FailAt(v, "expected %s, got %s", want, v.Kind())
}

// Str returns the string v holds, escapes resolved and invalid UTF-8
// replaced by U+FFFD as encoding/json does; any other kind of value is an
// error.
func (d *Decoder) Str(v Value) string {
	if v.n == nil || v.n.kind != '"' {
		d.FailType(v, "string")
		return ""
	}
	return v.doc.stringValue(v.n)
}

// Array returns the elements of the array v, each of which knows its
// index for error paths; any other kind of value is an error and returns
// nil. An empty array returns an empty, non-nil slice.
func (d *Decoder) Array(v Value) []Value {
	if v.n == nil || v.n.kind != '[' {
		d.FailType(v, "array")
		return nil
	}
	c := d.containers.New(hint)
	*c = container{v: v, array: true}
	return d.elements(c)
}

// elements lists the elements of the array c.
func (d *Decoder) elements(c *container) []Value {
	v := c.v
	nodes := v.doc.nodes
	i := v.i + 1
	end := v.n.next
	// The scan counted the elements: counting them here, a hop through
	// the nodes apiece, was 2.5 % of a long thread's decoding.
	out := d.values.Take(int(v.n.val), hint)[:0] // each value is overwritten
	for j := i; j < end; j = nodes[j].next {
		out = append(out, Value{doc: v.doc, n: &nodes[j], i: j, parent: c, idx: len(out)})
	}
	return out
}

// Strings returns the array of strings v holds; it never returns nil for
// an array.
func (d *Decoder) Strings(v Value) []string {
	elems := d.Array(v)
	out := make([]string, 0, len(elems))
	for _, e := range elems {
		out = append(out, d.Str(e))
	}
	return out
}

// Integer returns the number v holds, which must be an integer in
// [lo, hi]. A number written with a fraction or exponent counts when its
// value is integral, as JavaScript's JSON.parse sees it; beyond
// [MaxSafeInteger] such a number is out of range.
func (d *Decoder) Integer(v Value, lo, hi int64) int64 {
	if v.n == nil || v.n.kind != '0' {
		d.FailType(v, "integer")
		return 0
	}
	text := string(v.raw())
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

// Opaque returns v, which must be present, as compact JSON, for values a
// caller passes through without reading them. Compacting keeps a value
// that arrived with line breaks from breaking line-based framing (such as
// Server-Sent Events) when it is written out again.
func (d *Decoder) Opaque(v Value) json.RawMessage {
	if v.n.plain || (v.n.kind != '{' && v.n.kind != '[') {
		return bytes.Clone(v.raw())
	}
	var buf bytes.Buffer
	buf.Grow(int(v.n.end - v.n.start))
	if err := json.Compact(&buf, v.raw()); err != nil {
		d.FailAt(v, "invalid JSON value: %v", err)
		return nil
	}
	return json.RawMessage(buf.Bytes())
}

// OptRaw returns v, an optional value, as [Object.OptRaw] returns a
// member: compact JSON, or a nil interface when v is absent or null.
func (d *Decoder) OptRaw(v Value) any {
	if v.n == nil || v.IsNull() {
		return nil
	}
	if r := d.Opaque(v); r != nil {
		return r
	}
	return nil
}

// AnyObject returns the object v holds as encoding/json decodes it into
// an any with UseNumber: a map of plain Go values, numbers as json.Number
// so that they re-encode digit for digit. Any other kind of value is an
// error and returns nil.
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
		return json.Number(doc.text[n.start:n.end])
	case 't':
		return true
	case 'f':
		return false
	}
	return nil
}
