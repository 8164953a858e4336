package jsonpatch

import (
	"reflect"
	"strings"

	"github.com/agui-go/agui"
)

// PathOps returns the RFC 6902 operations that writing v at toks (as
// SetPath does) makes to doc, computed from the path alone, before the
// write: "replace" where something already is, "add" at the first missing
// member (carrying the objects SetPath creates on the way), "add" at "-"
// for an append, and none when doc already holds v there. Unlike a diff of
// the whole state it costs the path and the value, not the state's size,
// which keeps a tool write into a large state cheap. doc is not modified.
func PathOps(doc any, toks []string, v any) []agui.PatchOp {
	if len(toks) == 0 {
		if reflect.DeepEqual(doc, v) {
			return nil
		}
		return []agui.PatchOp{{Op: "replace", Path: "", Value: DeepCopy(v)}}
	}
	if doc == nil {
		// A null state becomes the objects leading to v.
		return []agui.PatchOp{{Op: "replace", Path: "", Value: nest(toks, v)}}
	}
	cur := doc
	for i, tok := range toks {
		last := i == len(toks)-1
		var child any
		found := false
		switch c := cur.(type) {
		case map[string]any:
			child, found = c[tok]
		case []any:
			if last && tok == "-" {
				return []agui.PatchOp{{Op: "add", Path: pointer(toks), Value: DeepCopy(v)}}
			}
			if j, err := arrayIndex(tok, len(c), false); err == nil {
				child, found = c[j], true
			}
		}
		switch {
		case !found:
			return []agui.PatchOp{{Op: "add", Path: pointer(toks[:i+1]), Value: nest(toks[i+1:], v)}}
		case !last && child == nil:
			// A null on the way is replaced by the objects leading to v.
			return []agui.PatchOp{{Op: "replace", Path: pointer(toks[:i+1]), Value: nest(toks[i+1:], v)}}
		case last:
			if reflect.DeepEqual(child, v) {
				return nil
			}
			return []agui.PatchOp{{Op: "replace", Path: pointer(toks), Value: DeepCopy(v)}}
		}
		cur = child
	}
	return nil
}

// nest returns a copy of v inside the objects toks name, as SetPath
// creates them.
func nest(toks []string, v any) any {
	out := DeepCopy(v)
	for i := len(toks) - 1; i >= 0; i-- {
		out = map[string]any{toks[i]: out}
	}
	return out
}

// pointer encodes tokens as an RFC 6901 JSON Pointer.
func pointer(toks []string) string {
	var b strings.Builder
	for _, t := range toks {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(t))
	}
	return b.String()
}

// UpdateFromOps is [Update] for a large document whose operations are
// known (see [PathOps]): the STATE_DELTA of ops, or a STATE_SNAPSHOT of
// next when that encodes smaller, by the one rule of [Smaller]. size is an
// estimate of next's JSON size; half of it is taken as the snapshot's
// floor, so a delta below that wins without the whole document being
// encoded per write.
func UpdateFromOps(ops []agui.PatchOp, next any, size int) (agui.Event, error) {
	snapshot := func() *agui.StateSnapshot { return &agui.StateSnapshot{Snapshot: DeepCopy(next)} }
	return Smaller(&agui.StateDelta{Delta: ops}, snapshot, size/2)
}

// DecodedCopy copies v when it already is in decoded-JSON form (maps of
// string to any, slices of any, strings, float64, bools, nil; ints count,
// as their JSON decodes to the same float64), estimating its JSON size on
// the way. It spares Normalize's JSON round trip, whose encoder sorts
// every map's keys, for the states agents and decoders usually hand over.
// ok is false for anything else, which must take the round trip.
func DecodedCopy(v any, depth int) (out any, size int, ok bool) {
	if depth > 10000 {
		return nil, 0, false
	}
	switch x := v.(type) {
	case nil:
		return nil, 4, true
	case bool:
		return x, 5, true
	case string:
		return x, len(x) + 2, true
	case float64:
		return x, 8, true
	case int:
		return float64(x), 8, true
	case int64:
		return float64(x), 8, true
	case map[string]any:
		m := make(map[string]any, len(x))
		size = 2
		for k, e := range x {
			c, n, ok := DecodedCopy(e, depth+1)
			if !ok {
				return nil, 0, false
			}
			m[k] = c
			size += len(k) + 4 + n
		}
		return m, size, true
	case []any:
		s := make([]any, len(x))
		size = 2
		for i, e := range x {
			c, n, ok := DecodedCopy(e, depth+1)
			if !ok {
				return nil, 0, false
			}
			s[i] = c
			size += n + 1
		}
		return s, size, true
	}
	return nil, 0, false
}
