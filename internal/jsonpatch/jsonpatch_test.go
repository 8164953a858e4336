package jsonpatch

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/wI2L/jsondiff"

	"github.com/agui-go/agui"
)

// doc decodes a JSON literal for the tests.
func doc(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad test JSON %s: %v", s, err)
	}
	return v
}

func TestParsePointer(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		bad  bool
	}{
		{in: "", want: nil},
		{in: "/", want: []string{""}},
		{in: "/a/b", want: []string{"a", "b"}},
		{in: "/a~1b/m~0n", want: []string{"a/b", "m~n"}},
		{in: "/~01", want: []string{"~1"}},
		{in: "a", bad: true},
		{in: "/a~", bad: true},
		{in: "/a~2", bad: true},
	}
	for _, tt := range tests {
		got, err := ParsePointer(tt.in)
		if tt.bad {
			if err == nil {
				t.Errorf("ParsePointer(%q) = %q, want an error", tt.in, got)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("ParsePointer(%q) = %q, %v, want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestApplyPatch(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		ops  []agui.PatchOp
		want string // "" means the patch must fail
	}{
		{"add member", `{"a":1}`, []agui.PatchOp{{Op: "add", Path: "/b", Value: 2}}, `{"a":1,"b":2}`},
		{"add replaces a member", `{"a":1}`, []agui.PatchOp{{Op: "add", Path: "/a", Value: []int{1}}}, `{"a":[1]}`},
		{"add null", `{}`, []agui.PatchOp{{Op: "add", Path: "/a", Value: nil}}, `{"a":null}`},
		{"insert into array", `{"a":[1,3]}`, []agui.PatchOp{{Op: "add", Path: "/a/1", Value: 2}}, `{"a":[1,2,3]}`},
		{"append with -", `{"a":[1]}`, []agui.PatchOp{{Op: "add", Path: "/a/-", Value: 2}}, `{"a":[1,2]}`},
		{"append at length", `[1]`, []agui.PatchOp{{Op: "add", Path: "/1", Value: 2}}, `[1,2]`},
		{"add past the end", `[1]`, []agui.PatchOp{{Op: "add", Path: "/2", Value: 2}}, ""},
		{"add under a missing parent", `{}`, []agui.PatchOp{{Op: "add", Path: "/a/b", Value: 1}}, ""},
		{"add the root", `{"a":1}`, []agui.PatchOp{{Op: "add", Path: "", Value: map[string]any{"b": 2}}}, `{"b":2}`},
		{"remove member", `{"a":1,"b":2}`, []agui.PatchOp{{Op: "remove", Path: "/a"}}, `{"b":2}`},
		{"remove element", `[1,2,3]`, []agui.PatchOp{{Op: "remove", Path: "/1"}}, `[1,3]`},
		{"remove missing", `{"a":1}`, []agui.PatchOp{{Op: "remove", Path: "/b"}}, ""},
		{"replace", `{"a":{"b":1}}`, []agui.PatchOp{{Op: "replace", Path: "/a/b", Value: "x"}}, `{"a":{"b":"x"}}`},
		{"replace missing", `{"a":1}`, []agui.PatchOp{{Op: "replace", Path: "/b", Value: 1}}, ""},
		{"move", `{"a":{"b":1},"c":{}}`, []agui.PatchOp{{Op: "move", From: "/a/b", Path: "/c/d"}}, `{"a":{},"c":{"d":1}}`},
		{"move within an array", `[1,2,3]`, []agui.PatchOp{{Op: "move", From: "/0", Path: "/2"}}, `[2,3,1]`},
		{"move into itself", `{"a":{"b":1}}`, []agui.PatchOp{{Op: "move", From: "/a", Path: "/a/b/c"}}, ""},
		{"copy is deep", `{"a":{"b":1}}`, []agui.PatchOp{{Op: "copy", From: "/a", Path: "/c"}, {Op: "replace", Path: "/c/b", Value: 2}}, `{"a":{"b":1},"c":{"b":2}}`},
		{"test passes", `{"a":[1,{"b":true}]}`, []agui.PatchOp{{Op: "test", Path: "/a", Value: []any{1, map[string]bool{"b": true}}}}, `{"a":[1,{"b":true}]}`},
		{"test fails", `{"a":1}`, []agui.PatchOp{{Op: "test", Path: "/a", Value: 2}}, ""},
		{"escaped keys", `{"a/b":{"m~n":1}}`, []agui.PatchOp{{Op: "replace", Path: "/a~1b/m~0n", Value: 2}}, `{"a/b":{"m~n":2}}`},
		{"leading zero index", `[1,2]`, []agui.PatchOp{{Op: "remove", Path: "/01"}}, ""},
		{"index into a string", `{"a":"s"}`, []agui.PatchOp{{Op: "add", Path: "/a/0", Value: 1}}, ""},
		{"unknown op", `{}`, []agui.PatchOp{{Op: "merge", Path: "/a"}}, ""},
		{"bad pointer", `{}`, []agui.PatchOp{{Op: "add", Path: "a", Value: 1}}, ""},
		{"all or nothing", `{"a":1}`, []agui.PatchOp{{Op: "add", Path: "/b", Value: 2}, {Op: "remove", Path: "/zz"}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			orig := doc(t, tt.doc)
			before := DeepCopy(orig)
			got, err := Apply(orig, tt.ops)
			if !reflect.DeepEqual(orig, before) {
				t.Fatalf("Apply modified its input: %v", orig)
			}
			if tt.want == "" {
				if err == nil {
					t.Fatalf("Apply = %v, want an error", got)
				}
				return
			}
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if want := doc(t, tt.want); !reflect.DeepEqual(got, want) {
				t.Errorf("Apply = %v, want %v", got, want)
			}
		})
	}
}

// TestApplyPatchFollowsJSONDiff proves that the patches ToolResultToState
// emits (computed by jsondiff) rebuild the target from the source.
func TestApplyPatchFollowsJSONDiff(t *testing.T) {
	pairs := [][2]string{
		{`{}`, `{"search":{"results":[1,2]}}`},
		{`{"a":[1,2,3,4]}`, `{"a":[2,3]}`},
		{`{"a":[1,2]}`, `{"a":[0,1,2,3]}`},
		{`{"a":{"b":null}}`, `{"a":{"c":null}}`},
		{`[{"x":1},{"y":2}]`, `[{"y":2},{"x":1},{"z":3}]`},
		{`null`, `{"a":1}`},
		{`{"a":1}`, `"text"`},
		{`{"k/e~y":1}`, `{"k/e~y":2,"other":[true]}`},
	}
	for _, p := range pairs {
		src, tgt := doc(t, p[0]), doc(t, p[1])
		patch, err := jsondiff.CompareWithoutMarshal(src, tgt)
		if err != nil {
			t.Fatal(err)
		}
		ops := make([]agui.PatchOp, len(patch))
		for i, op := range patch {
			ops[i] = agui.PatchOp{Op: op.Type, Path: op.Path, From: op.From, Value: op.Value}
		}
		got, err := Apply(src, ops)
		if err != nil {
			t.Fatalf("%s -> %s: %v (patch %v)", p[0], p[1], err, patch)
		}
		if !reflect.DeepEqual(got, tgt) {
			t.Errorf("%s -> %s: patch %v gives %v", p[0], p[1], patch, got)
		}
	}
}

func TestSetPath(t *testing.T) {
	tests := []struct {
		name, doc, path string
		value           any
		want            string // "" means an error
	}{
		{"creates objects", `{}`, "/search/results", []any{"r"}, `{"search":{"results":["r"]}}`},
		{"from null", `null`, "/a", 1.0, `{"a":1}`},
		{"through null", `{"a":null}`, "/a/b", 1.0, `{"a":{"b":1}}`},
		{"keeps siblings", `{"a":{"x":1}}`, "/a/y", 2.0, `{"a":{"x":1,"y":2}}`},
		{"replaces", `{"a":{"x":1}}`, "/a/x", 2.0, `{"a":{"x":2}}`},
		{"array element", `{"a":[1,2]}`, "/a/1", 5.0, `{"a":[1,5]}`},
		{"array append", `{"a":[1]}`, "/a/-", 2.0, `{"a":[1,2]}`},
		{"through an array", `{"a":[{"b":1}]}`, "/a/0/c", 2.0, `{"a":[{"b":1,"c":2}]}`},
		{"root", `{"a":1}`, "", "x", `"x"`},
		{"array index out of range", `{"a":[]}`, "/a/0", 1.0, ""},
		{"through a string", `{"a":"s"}`, "/a/b", 1.0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			orig := doc(t, tt.doc)
			before := DeepCopy(orig)
			toks, err := ParsePointer(tt.path)
			if err != nil {
				t.Fatal(err)
			}
			got, err := SetPath(orig, toks, tt.value)
			if !reflect.DeepEqual(orig, before) {
				t.Fatalf("SetPath modified its input: %v", orig)
			}
			if tt.want == "" {
				if err == nil {
					t.Fatalf("SetPath = %v, want an error", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if want := doc(t, tt.want); !reflect.DeepEqual(got, want) {
				t.Errorf("SetPath = %v, want %v", got, want)
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	type S struct {
		N int    `json:"n"`
		S string `json:"s"`
	}
	got, err := Normalize(S{N: 2, S: "x"})
	if err != nil || !reflect.DeepEqual(got, map[string]any{"n": 2.0, "s": "x"}) {
		t.Errorf("Normalize(struct) = %v, %v", got, err)
	}
	got, err = Normalize(json.RawMessage(`{"a":[1]}`))
	if err != nil || !reflect.DeepEqual(got, map[string]any{"a": []any{1.0}}) {
		t.Errorf("Normalize(raw) = %v, %v", got, err)
	}
	if _, err := Normalize(make(chan int)); err == nil {
		t.Error("Normalize(chan) succeeded")
	}
	if _, err := Normalize(json.RawMessage(`{`)); err == nil {
		t.Error("Normalize(bad raw) succeeded")
	}
}

// FuzzApplyPatch feeds arbitrary documents and patches to the applier: it
// must never panic, and a failed patch must leave the document alone.
func FuzzApplyPatch(f *testing.F) {
	f.Add(`{"a":[1,2]}`, `[{"op":"add","path":"/a/-","value":3}]`)
	f.Add(`[]`, `[{"op":"move","from":"/0","path":"/1"}]`)
	f.Add(`{"a":{"b":1}}`, `[{"op":"copy","from":"/a","path":"/a/b/c"}]`)
	f.Add(`null`, `[{"op":"remove","path":""},{"op":"test","path":"/~0/~1","value":null}]`)
	f.Fuzz(func(t *testing.T, docJSON, patchJSON string) {
		var d any
		var ops []agui.PatchOp
		if json.Unmarshal([]byte(docJSON), &d) != nil || json.Unmarshal([]byte(patchJSON), &ops) != nil {
			return
		}
		before := DeepCopy(d)
		_, _ = Apply(d, ops)
		if len(ops) > 0 {
			if toks, err := ParsePointer(ops[0].Path); err == nil {
				_, _ = SetPath(d, toks, "v")
			}
		}
		if !reflect.DeepEqual(d, before) {
			t.Fatalf("the document was modified")
		}
	})
}
