// Package jsonpatch is the module's one JSON Patch machinery: values in
// decoded-JSON form, RFC 6901 pointers, an RFC 6902 applier that behaves
// like the official client's (a patch applies whole or not at all), and the
// one rule that picks the smaller of STATE_SNAPSHOT and STATE_DELTA, shared
// by the runner's UpdateState and the ToolResultToState transformer.
//
// Every value handled here is in decoded-JSON form: nil, bool, float64,
// string, []any or map[string]any, as encoding/json decodes into an any.
package jsonpatch

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/agui-go/agui"
)

// This file holds the JSON machinery ToolResultToState needs to follow the
// client's state: normalising values to their decoded-JSON form, RFC 6901
// pointers, and an RFC 6902 patch applier that behaves like the client's
// (a patch applies whole or not at all).
//
// Every value handled here is in decoded-JSON form: nil, bool, float64,
// string, []any or map[string]any, as encoding/json decodes into an any.

// Normalize converts v to its decoded-JSON form by a round trip through
// encoding/json, so that values from agents (structs, typed maps, ints) and
// values from the wire (json.RawMessage) compare and patch alike.
func Normalize(v any) (any, error) {
	out, _, err := NormalizeSized(v)
	return out, err
}

// NormalizeSized is Normalize that also returns the length of v's JSON.
func NormalizeSized(v any) (any, int, error) {
	var raw []byte
	switch x := v.(type) {
	case nil:
		return nil, 4, nil
	case json.RawMessage:
		raw = x
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return nil, 0, err
		}
		raw = b
	}
	var out any
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, 0, err
	}
	return out, len(raw), nil
}

// DeepCopy copies a decoded-JSON value so that edits to the copy never show
// through the original.
func DeepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = DeepCopy(e)
		}
		return m
	case []any:
		s := make([]any, len(x))
		for i, e := range x {
			s[i] = DeepCopy(e)
		}
		return s
	default:
		return v
	}
}

// ParsePointer splits an RFC 6901 JSON Pointer into its unescaped reference
// tokens. "" is the whole document and has no tokens.
func ParsePointer(p string) ([]string, error) {
	if p == "" {
		return nil, nil
	}
	if p[0] != '/' {
		return nil, fmt.Errorf("JSON pointer %q does not start with '/'", p)
	}
	toks := strings.Split(p[1:], "/")
	for i, t := range toks {
		if !strings.Contains(t, "~") {
			continue
		}
		var b strings.Builder
		for j := 0; j < len(t); j++ {
			if t[j] != '~' {
				b.WriteByte(t[j])
				continue
			}
			if j+1 == len(t) || (t[j+1] != '0' && t[j+1] != '1') {
				return nil, fmt.Errorf("JSON pointer %q has a bad escape", p)
			}
			if t[j+1] == '0' {
				b.WriteByte('~')
			} else {
				b.WriteByte('/')
			}
			j++
		}
		toks[i] = b.String()
	}
	return toks, nil
}

// arrayIndex parses an array reference token. With end set, "-" (one past
// the last element) and n itself are accepted, as an add allows.
func arrayIndex(tok string, n int, end bool) (int, error) {
	if end && tok == "-" {
		return n, nil
	}
	// RFC 6901: "0" or digits without a leading zero; no sign.
	if tok == "" || (len(tok) > 1 && tok[0] == '0') || strings.TrimLeft(tok, "0123456789") != "" {
		return 0, fmt.Errorf("%q is not an array index", tok)
	}
	i, err := strconv.Atoi(tok)
	if err != nil {
		return 0, fmt.Errorf("%q is not an array index", tok)
	}
	limit := n - 1
	if end {
		limit = n
	}
	if i > limit {
		return 0, fmt.Errorf("array index %d is out of range (length %d)", i, n)
	}
	return i, nil
}

// ErrNotFound reports a pointer that names nothing in the document.
var ErrNotFound = errors.New("path not found")

// Lookup returns the value toks names in doc.
func Lookup(doc any, toks []string) (any, error) {
	for _, t := range toks {
		switch c := doc.(type) {
		case map[string]any:
			v, ok := c[t]
			if !ok {
				return nil, ErrNotFound
			}
			doc = v
		case []any:
			i, err := arrayIndex(t, len(c), false)
			if err != nil {
				return nil, err
			}
			doc = c[i]
		default:
			return nil, ErrNotFound
		}
	}
	return doc, nil
}

// edit walks doc to the container holding the last of toks and replaces that
// container with what leaf returns. It returns the edited document, which
// shares structure with doc: callers edit copies. toks must not be empty.
func edit(doc any, toks []string, leaf func(container any, tok string) (any, error)) (any, error) {
	if len(toks) == 1 {
		return leaf(doc, toks[0])
	}
	switch c := doc.(type) {
	case map[string]any:
		child, ok := c[toks[0]]
		if !ok {
			return nil, ErrNotFound
		}
		nc, err := edit(child, toks[1:], leaf)
		if err != nil {
			return nil, err
		}
		c[toks[0]] = nc
		return c, nil
	case []any:
		i, err := arrayIndex(toks[0], len(c), false)
		if err != nil {
			return nil, err
		}
		nc, err := edit(c[i], toks[1:], leaf)
		if err != nil {
			return nil, err
		}
		c[i] = nc
		return c, nil
	default:
		return nil, ErrNotFound
	}
}

// addLeaf is RFC 6902 add at one container: set a member, or insert into
// an array.
func addLeaf(v any) func(any, string) (any, error) {
	return func(container any, tok string) (any, error) {
		switch c := container.(type) {
		case map[string]any:
			c[tok] = v
			return c, nil
		case []any:
			i, err := arrayIndex(tok, len(c), true)
			if err != nil {
				return nil, err
			}
			c = append(c, nil)
			copy(c[i+1:], c[i:])
			c[i] = v
			return c, nil
		default:
			return nil, ErrNotFound
		}
	}
}

// removeLeaf is RFC 6902 remove at one container; the target must exist.
func removeLeaf(container any, tok string) (any, error) {
	switch c := container.(type) {
	case map[string]any:
		if _, ok := c[tok]; !ok {
			return nil, ErrNotFound
		}
		delete(c, tok)
		return c, nil
	case []any:
		i, err := arrayIndex(tok, len(c), false)
		if err != nil {
			return nil, err
		}
		return append(c[:i], c[i+1:]...), nil
	default:
		return nil, ErrNotFound
	}
}

// replaceLeaf is RFC 6902 replace at one container; the target must exist.
func replaceLeaf(v any) func(any, string) (any, error) {
	return func(container any, tok string) (any, error) {
		switch c := container.(type) {
		case map[string]any:
			if _, ok := c[tok]; !ok {
				return nil, ErrNotFound
			}
			c[tok] = v
			return c, nil
		case []any:
			i, err := arrayIndex(tok, len(c), false)
			if err != nil {
				return nil, err
			}
			c[i] = v
			return c, nil
		default:
			return nil, ErrNotFound
		}
	}
}

// Apply applies ops to doc and returns the patched document. doc is
// not modified. The patch applies whole or not at all: on error the caller
// keeps doc, as the client keeps its state when a STATE_DELTA fails.
func Apply(doc any, ops []agui.PatchOp) (any, error) {
	doc = DeepCopy(doc)
	for i, op := range ops {
		var err error
		doc, err = applyOp(doc, op)
		if err != nil {
			return nil, fmt.Errorf("patch operation %d (%s %q): %w", i, op.Op, op.Path, err)
		}
	}
	return doc, nil
}

// applyOp applies one operation to doc, which it may modify.
func applyOp(doc any, op agui.PatchOp) (any, error) {
	toks, err := ParsePointer(op.Path)
	if err != nil {
		return nil, err
	}
	switch op.Op {
	case "add", "replace", "test":
		v, err := Normalize(op.Value)
		if err != nil {
			return nil, err
		}
		switch {
		case op.Op == "test":
			cur, err := Lookup(doc, toks)
			if err != nil {
				return nil, err
			}
			if !reflect.DeepEqual(cur, v) {
				return nil, errors.New("test failed")
			}
			return doc, nil
		case len(toks) == 0:
			return v, nil
		case op.Op == "add":
			return edit(doc, toks, addLeaf(v))
		default:
			return edit(doc, toks, replaceLeaf(v))
		}
	case "remove":
		if len(toks) == 0 {
			// As fast-json-patch does: removing the root leaves null.
			return nil, nil
		}
		return edit(doc, toks, removeLeaf)
	case "move", "copy":
		from, err := ParsePointer(op.From)
		if err != nil {
			return nil, err
		}
		v, err := Lookup(doc, from)
		if err != nil {
			return nil, err
		}
		if op.Op == "move" {
			if op.From == op.Path {
				return doc, nil
			}
			if strings.HasPrefix(op.Path, op.From+"/") {
				return nil, errors.New("cannot move a value into itself")
			}
			if len(from) == 0 {
				return nil, errors.New("cannot move the root")
			}
			if doc, err = edit(doc, from, removeLeaf); err != nil {
				return nil, err
			}
		} else {
			v = DeepCopy(v)
		}
		if len(toks) == 0 {
			return v, nil
		}
		return edit(doc, toks, addLeaf(v))
	default:
		return nil, fmt.Errorf("unknown operation %q", op.Op)
	}
}

// SetPath writes v at toks in doc, creating the objects that lead there
// when they are missing (or null), and returns the new document; doc is not
// modified. An array on the way must already hold the indexed element; as
// the last token, "-" appends. A string, number or boolean on the way is an
// error: writing through it would destroy what the client holds.
//
// Only the containers on the path are copied (shallowly), so a write costs
// the size of those containers, not of the whole document; the new
// document shares everything else with doc, which is fine because
// documents are never modified in place once built.
func SetPath(doc any, toks []string, v any) (any, error) {
	if len(toks) == 0 {
		return v, nil
	}
	return setIn(doc, toks, v, true)
}

// SetPathInPlace is SetPath modifying doc's containers in place instead
// of copying them: for a document no one else holds.
func SetPathInPlace(doc any, toks []string, v any) (any, error) {
	if len(toks) == 0 {
		return v, nil
	}
	return setIn(doc, toks, v, false)
}

func setIn(doc any, toks []string, v any, clone bool) (any, error) {
	if doc == nil {
		doc = map[string]any{}
	}
	switch c := doc.(type) {
	case map[string]any:
		if clone {
			c = maps.Clone(c)
		}
		if len(toks) == 1 {
			c[toks[0]] = v
			return c, nil
		}
		nc, err := setIn(c[toks[0]], toks[1:], v, clone)
		if err != nil {
			return nil, err
		}
		c[toks[0]] = nc
		return c, nil
	case []any:
		if len(toks) == 1 && toks[0] == "-" {
			if clone {
				c = slices.Clip(c)
			}
			return append(c, v), nil
		}
		if clone {
			c = slices.Clone(c)
		}
		i, err := arrayIndex(toks[0], len(c), false)
		if err != nil {
			return nil, err
		}
		if len(toks) == 1 {
			c[i] = v
			return c, nil
		}
		nc, err := setIn(c[i], toks[1:], v, clone)
		if err != nil {
			return nil, err
		}
		c[i] = nc
		return c, nil
	default:
		return nil, fmt.Errorf("cannot write through a %T", doc)
	}
}
