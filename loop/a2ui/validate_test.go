package a2ui_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop/a2ui"
)

// surface decodes a surface as a model would send it.
func surface(t *testing.T, js string) a2ui.Surface {
	t.Helper()
	var s a2ui.Surface
	if err := json.Unmarshal([]byte(js), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

func catalog(t *testing.T) *a2ui.Catalog {
	t.Helper()
	var c a2ui.Catalog
	if err := json.Unmarshal([]byte(`{"catalogId":"https://a2ui.org/demos/dojo/dynamic_catalog.json",
		"components":{"Row":{"type":"object","required":["children"]},"HotelCard":{"type":"object","required":["name","rating"]}}}`), &c); err != nil {
		t.Fatal(err)
	}
	return &c
}

const hotels = `{"surfaceId":"hotel-comparison","components":[
	{"id":"root","component":"Row","children":{"componentId":"card","path":"/items"}},
	{"id":"card","component":"HotelCard","name":{"path":"name"},"rating":{"path":"rating"}}],
	"data":{"items":[{"name":"The Ritz","rating":4.8}]}}`

func codes(ps []a2ui.Problem) []agui.Code {
	var out []agui.Code
	for _, p := range ps {
		out = append(out, p.Code)
	}
	return out
}

func TestValidate(t *testing.T) {
	cases := []struct {
		name string
		js   string
		cat  bool
		want []agui.Code
	}{
		{"valid with catalog", hotels, true, nil},
		{"valid children list", `{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["a","b"]},{"id":"a","component":"Text"},{"id":"b","component":"Card","child":"a"}]}`, false, nil},
		{"no root", `{"surfaceId":"s","components":[{"id":"top","component":"Text"}]}`, false, []agui.Code{a2ui.CodeNoRoot}},
		{"unresolved template (the Dojo's broken surface)", `{"surfaceId":"s","components":[{"id":"root","component":"Row","children":{"componentId":"card","path":"/items"}}]}`, false, []agui.Code{a2ui.CodeUnresolvedChild}},
		{"unresolved child", `{"surfaceId":"s","components":[{"id":"root","component":"Card","child":"nope"}]}`, false, []agui.Code{a2ui.CodeUnresolvedChild}},
		{"duplicate id", `{"surfaceId":"s","components":[{"id":"root","component":"Text"},{"id":"root","component":"Text"}]}`, false, []agui.Code{a2ui.CodeDuplicateID}},
		{"self cycle", `{"surfaceId":"s","components":[{"id":"root","component":"Card","child":"root"}]}`, false, []agui.Code{a2ui.CodeCycle}},
		{"cycle of three", `{"surfaceId":"s","components":[{"id":"root","component":"Column","children":["a"]},{"id":"a","component":"Column","children":["b"]},{"id":"b","component":"Column","children":["root"]}]}`, false, []agui.Code{a2ui.CodeCycle}},
		{"unknown type", `{"surfaceId":"s","components":[{"id":"root","component":"Marquee"}]}`, true, []agui.Code{a2ui.CodeUnknownComponent}},
		{"missing required", `{"surfaceId":"s","components":[{"id":"root","component":"HotelCard","name":"x"}]}`, true, []agui.Code{a2ui.CodeMissingProperty}},
		{"no surface id", `{"components":[{"id":"root","component":"Text"}]}`, false, []agui.Code{a2ui.CodeMalformed}},
		{"no id, no type", `{"surfaceId":"s","components":[{"id":"root","component":"Text"},{"component":"Text"},{"id":"x"}]}`, false, []agui.Code{a2ui.CodeMalformed, a2ui.CodeMalformed}},
		{"children of the wrong shape", `{"surfaceId":"s","components":[{"id":"root","component":"Row","children":7},{"id":"a","component":"Row","children":[1]},{"id":"b","component":"Row","children":{"componentId":"a"}},{"id":"c","component":"Card","child":["a"]}]}`, false,
			[]agui.Code{a2ui.CodeMalformed, a2ui.CodeMalformed, a2ui.CodeMalformed, a2ui.CodeMalformed}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var cat *a2ui.Catalog
			if c.cat {
				cat = catalog(t)
			}
			ps := a2ui.Validate(surface(t, c.js), cat, a2ui.Limits{})
			if fmt.Sprint(codes(ps)) != fmt.Sprint(c.want) {
				t.Fatalf("problems %v, want codes %v", ps, c.want)
			}
		})
	}
}

func TestProblemString(t *testing.T) {
	ps := a2ui.Validate(surface(t, `{"surfaceId":"s","components":[{"id":"root","component":"Row","children":{"componentId":"card","path":"/items"}}]}`), nil, a2ui.Limits{})
	want := `[A2UI_UNRESOLVED_CHILD] components[0].children.componentId: "card" is not the id of a component`
	if len(ps) != 1 || ps[0].String() != want {
		t.Fatalf("got %v, want %s", ps, want)
	}
}

// A huge surface is refused whole, before any other work.
func TestValidateTooLarge(t *testing.T) {
	cs := make([]a2ui.Component, 501)
	for i := range cs {
		cs[i] = a2ui.Component{ID: "x", Type: "Text"}
	}
	ps := a2ui.Validate(a2ui.Surface{ID: "s", Components: cs}, nil, a2ui.Limits{})
	if len(ps) != 1 || ps[0].Code != a2ui.CodeTooLarge {
		t.Fatalf("got %v", ps)
	}
	ps = a2ui.Validate(a2ui.Surface{ID: "s", Components: cs[:3]}, nil, a2ui.Limits{Components: 2})
	if len(ps) != 1 || ps[0].Code != a2ui.CodeTooLarge {
		t.Fatalf("limit 2: got %v", ps)
	}
}

// Problems are capped; the last says how many more there were.
func TestValidateProblemCap(t *testing.T) {
	cs := []a2ui.Component{{ID: "root", Type: "Column", Props: map[string]any{"children": []string{}}}}
	var ids []string
	for i := range 100 {
		ids = append(ids, fmt.Sprintf("missing%d", i))
	}
	cs[0].Props["children"] = ids
	ps := a2ui.Validate(a2ui.Surface{ID: "s", Components: cs}, nil, a2ui.Limits{Problems: 5})
	if len(ps) != 5 || !strings.HasSuffix(ps[4].Message, "(and 95 more problems)") {
		t.Fatalf("got %d problems, last %v", len(ps), ps[len(ps)-1])
	}
}

// A chain as deep as the limit allows is walked without recursion, and a
// cycle at its end is found.
func TestValidateDeepChain(t *testing.T) {
	const n = 500
	cs := make([]a2ui.Component, n)
	for i := range cs {
		id := fmt.Sprintf("c%d", i)
		if i == 0 {
			id = "root"
		}
		cs[i] = a2ui.Component{ID: id, Type: "Card", Props: map[string]any{"child": fmt.Sprintf("c%d", i+1)}}
	}
	cs[n-1].Props["child"] = "c1"
	ps := a2ui.Validate(a2ui.Surface{ID: "s", Components: cs}, nil, a2ui.Limits{})
	if fmt.Sprint(codes(ps)) != fmt.Sprint([]agui.Code{a2ui.CodeCycle}) {
		t.Fatalf("got %v", ps)
	}
}
