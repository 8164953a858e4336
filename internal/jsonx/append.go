package jsonx

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strconv"
)

// This file is the append-style encoder of plain Go values (strings are in
// string.go): numbers, opaque values, maps and slices. The output matches encoding/json with
// HTML escaping turned off, which is also what JSON.stringify produces for
// the same values apart from the escaping of U+2028/U+2029 and invalid
// UTF-8 (both are valid JSON either way).

// appendFloat appends f the way encoding/json (and JavaScript) formats a
// number: the shortest representation that round-trips, in exponent form
// only for very small or very large magnitudes.
func appendFloat(dst []byte, f float64, bits int) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return dst, errors.New("unsupported number " + strconv.FormatFloat(f, 'g', -1, bits))
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	dst = strconv.AppendFloat(dst, f, format, -1, bits)
	if format == 'e' {
		// JavaScript writes 1e-7, strconv writes 1e-07.
		if n := len(dst); n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst, nil
}

// maxDepth bounds the nesting of the maps and slices AppendValue walks
// itself. It is encoding/json's own decoding limit, so anything decoded
// from JSON encodes again, while a map or slice that contains itself fails
// with an error instead of overflowing the stack.
const maxDepth = 10000

// AppendValue appends v as JSON: nil as null, a json.RawMessage compacted
// and checked, the types encoding/json decodes into (and a few more) by
// hand, and anything else through encoding/json without HTML escaping. Map
// keys are sorted, as encoding/json sorts them. A value nested deeper than
// encoding/json decodes (a map or slice that contains itself, usually), a
// NaN or infinity, or an invalid json.Number is an error, wrapped in an
// [EncodeError] when it is inside a map or slice; on error the bytes
// appended so far are not removed.
func AppendValue(dst []byte, v any) ([]byte, error) { return appendNested(dst, v, 0) }

// appendNested is AppendValue for a value depth levels down.
func appendNested(dst []byte, v any, depth int) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case string:
		return AppendString(dst, v), nil
	case bool:
		return strconv.AppendBool(dst, v), nil
	case float64:
		return appendFloat(dst, v, 64)
	case float32:
		return appendFloat(dst, float64(v), 32)
	case int:
		return strconv.AppendInt(dst, int64(v), 10), nil
	case int64:
		return strconv.AppendInt(dst, v, 10), nil
	case int32:
		return strconv.AppendInt(dst, int64(v), 10), nil
	case uint64:
		return strconv.AppendUint(dst, v, 10), nil
	case json.Number:
		if v == "" {
			return append(dst, '0'), nil
		}
		if !isNumber(string(v)) {
			return dst, errors.New("invalid number literal " + strconv.Quote(string(v)))
		}
		return append(dst, v...), nil
	case json.RawMessage:
		return AppendRaw(dst, v)
	case map[string]any:
		if v == nil {
			return append(dst, "null"...), nil
		}
		return appendObject(dst, v, depth)
	case []any:
		if v == nil {
			return append(dst, "null"...), nil
		}
		return appendArray(dst, v, depth)
	case []string:
		if v == nil {
			return append(dst, "null"...), nil
		}
		return AppendStrings(dst, v), nil
	case map[string]string:
		if v == nil {
			return append(dst, "null"...), nil
		}
		return appendStringMap(dst, v), nil
	}
	return appendMarshal(dst, v)
}

// isNumber reports whether s is a JSON number literal:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func isNumber(s string) bool {
	i := 0
	digits := func() bool {
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i > start
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case !digits():
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if !digits() {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if !digits() {
			return false
		}
	}
	return i == len(s)
}

// AppendRaw appends already-encoded JSON, compacted and checked. An empty
// raw is written as null, as encoding/json does. On error dst is returned
// as it was.
func AppendRaw(dst []byte, raw json.RawMessage) ([]byte, error) {
	if len(raw) == 0 {
		return append(dst, "null"...), nil
	}
	n := len(dst)
	buf := bytes.NewBuffer(dst)
	if err := json.Compact(buf, raw); err != nil {
		return dst[:n], err
	}
	return buf.Bytes(), nil
}

// sliceWriter lets a json.Encoder write straight into the caller's buffer.
type sliceWriter struct{ b []byte }

func (w *sliceWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}

// appendMarshal is the slow path for values of other types.
func appendMarshal(dst []byte, v any) ([]byte, error) {
	n := len(dst)
	w := &sliceWriter{b: dst}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return dst[:n], err
	}
	// Encode terminates the value with a newline.
	return w.b[:len(w.b)-1], nil
}

// tooDeepError reports a value nested deeper than maxDepth, usually a map
// or slice that contains itself.
type tooDeepError struct{}

func (tooDeepError) Error() string {
	return "value nested deeper than " + strconv.Itoa(maxDepth) + " levels (does it contain itself?)"
}

// smallKeys is how many map keys appendObject sorts without allocating.
const smallKeys = 16

// AppendObject appends m as a JSON object, as [AppendValue] does, except
// that a nil map is written as {}.
func AppendObject(dst []byte, m map[string]any) ([]byte, error) { return appendObject(dst, m, 0) }

// appendObject appends m with its keys sorted, as encoding/json does, so
// that the output is deterministic.
func appendObject(dst []byte, m map[string]any, depth int) ([]byte, error) {
	if len(m) == 0 {
		return append(dst, '{', '}'), nil
	}
	if depth++; depth > maxDepth {
		return dst, tooDeepError{}
	}
	var small [smallKeys]string
	keys := appendSortedKeys(small[:0], m)
	dst = append(dst, '{')
	var err error
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendString(dst, k)
		dst = append(dst, ':')
		if dst, err = appendNested(dst, m[k], depth); err != nil {
			return dst, At(k, err)
		}
	}
	return append(dst, '}'), nil
}

// appendSortedKeys appends m's keys to keys, sorted, as encoding/json
// orders an object's members.
func appendSortedKeys[V any](keys []string, m map[string]V) []string {
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// appendArray appends a non-nil slice, depth levels down.
func appendArray(dst []byte, a []any, depth int) ([]byte, error) {
	if depth++; depth > maxDepth {
		return dst, tooDeepError{}
	}
	dst = append(dst, '[')
	var err error
	for i, v := range a {
		if i > 0 {
			dst = append(dst, ',')
		}
		if dst, err = appendNested(dst, v, depth); err != nil {
			return dst, AtIndex(i, err)
		}
	}
	return append(dst, ']'), nil
}

// AppendStrings appends a as a JSON array of strings; nil is written as [].
func AppendStrings(dst []byte, a []string) []byte {
	dst = append(dst, '[')
	for i, s := range a {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendString(dst, s)
	}
	return append(dst, ']')
}

// appendStringMap appends a non-nil map with its keys sorted.
func appendStringMap(dst []byte, m map[string]string) []byte {
	var small [smallKeys]string
	keys := appendSortedKeys(small[:0], m)
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendString(dst, k)
		dst = append(dst, ':')
		dst = AppendString(dst, m[k])
	}
	return append(dst, '}')
}

// IsNull reports whether b[n:], JSON just appended at index n, is null.
func IsNull(b []byte, n int) bool { return string(b[n:]) == "null" }
