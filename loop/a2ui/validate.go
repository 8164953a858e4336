package a2ui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/agui-go/agui"
)

// Catalog is the component catalog a surface is checked against: the
// component types a client can render and the properties each requires.
// It decodes from the inline JSON Schema catalog A2UI clients publish
// ({"catalogId":…,"components":{"Row":{"required":[…]},…}}). A plain value.
type Catalog struct {
	ID         string                   `json:"catalogId"`
	Components map[string]ComponentType `json:"components"`
}

// ComponentType is what a catalog says of one component type.
type ComponentType struct {
	// Required lists the properties a component of the type must have.
	Required []string `json:"required,omitempty"`
}

// Problem is one thing wrong with a surface: a stable code, where
// (Path, such as "components[2].children"), and what, for the model to
// fix. A plain value.
type Problem struct {
	Code    agui.Code `json:"code"`
	Path    string    `json:"path"`
	Message string    `json:"message"`
}

// String formats p as the retry prompt lists it: "[code] path: message".
func (p Problem) String() string { return "[" + string(p.Code) + "] " + p.Path + ": " + p.Message }

// Limits bound what [Validate] accepts and reports; a plain value. Zero
// fields take their defaults.
type Limits struct {
	// Components is the most components a surface may have (default 500);
	// a larger surface gets one [CodeTooLarge] problem and no other check.
	Components int
	// Problems is the most problems reported (default 20); the last says
	// how many more there were.
	Problems int
}

const (
	defaultMaxComponents = 500
	defaultMaxProblems   = 20
)

func (l Limits) withDefaults() Limits {
	if l.Components <= 0 {
		l.Components = defaultMaxComponents
	}
	if l.Problems <= 0 {
		l.Problems = defaultMaxProblems
	}
	return l
}

// Validate checks the structure of s and returns what is wrong with it,
// nil when nothing is: s has a surface id; each component has an id and a
// type; ids are unique; a component with id "root" exists; every child
// reference (children as ids or a template, child) names a component;
// no component is its own ancestor; and, when catalog is not nil, each
// type is one of the catalog's and has the properties the catalog
// requires. Validate never panics on hostile input, and its work is
// bounded by limits.
func Validate(s Surface, catalog *Catalog, limits Limits) []Problem {
	limits = limits.withDefaults()
	v := &validator{max: limits.Problems}
	if n := len(s.Components); n > limits.Components {
		v.add(CodeTooLarge, "components", fmt.Sprintf("%d components, at most %d", n, limits.Components))
		return v.result()
	}
	if s.ID == "" {
		v.add(CodeMalformed, "surfaceId", "missing surface id")
	}
	index := make(map[string]int, len(s.Components))
	for i, c := range s.Components {
		at := "components[" + strconv.Itoa(i) + "]"
		switch {
		case c.ID == "":
			v.add(CodeMalformed, at+".id", "missing component id")
		case hasKey(index, c.ID):
			v.add(CodeDuplicateID, at+".id", fmt.Sprintf("id %q is also components[%d]'s", c.ID, index[c.ID]))
		default:
			index[c.ID] = i
		}
		switch {
		case c.Type == "":
			v.add(CodeMalformed, at+".component", "missing component type")
		case catalog != nil:
			t, ok := catalog.Components[c.Type]
			if !ok {
				v.add(CodeUnknownComponent, at+".component", fmt.Sprintf("%q is not in the catalog; use one of %s", c.Type, typeList(catalog)))
				break
			}
			for _, p := range t.Required {
				if _, ok := c.Props[p]; !ok {
					v.add(CodeMissingProperty, at+"."+p, fmt.Sprintf("%s requires property %q", c.Type, p))
				}
			}
		}
	}
	if _, ok := index["root"]; !ok {
		v.add(CodeNoRoot, "components", `no component has id "root"`)
	}
	edges := make([][]int, len(s.Components))
	for i, c := range s.Components {
		at := "components[" + strconv.Itoa(i) + "]"
		for _, ref := range v.refs(c, at) {
			j, ok := index[ref.id]
			if !ok {
				v.add(CodeUnresolvedChild, ref.at, fmt.Sprintf("%q is not the id of a component", ref.id))
				continue
			}
			edges[i] = append(edges[i], j)
		}
	}
	v.cycles(s.Components, edges)
	return v.result()
}

type validator struct {
	problems []Problem
	max      int
	dropped  int
}

func (v *validator) add(code agui.Code, at, msg string) {
	if len(v.problems) < v.max {
		v.problems = append(v.problems, Problem{Code: code, Path: at, Message: msg})
		return
	}
	v.dropped++
}

// result returns the problems, the last saying how many were left out.
func (v *validator) result() []Problem {
	if v.dropped > 0 {
		v.problems[len(v.problems)-1].Message += fmt.Sprintf(" (and %d more problems)", v.dropped)
	}
	return v.problems
}

type ref struct{ id, at string }

// refs returns the child references of c; malformed children or child
// properties are problems.
func (v *validator) refs(c Component, at string) []ref {
	var out []ref
	if ch, ok := c.Props["children"]; ok {
		switch x := ch.(type) {
		case []string:
			for k, id := range x {
				out = append(out, ref{id, at + ".children[" + strconv.Itoa(k) + "]"})
			}
		case []any:
			for k, e := range x {
				id, ok := e.(string)
				if !ok {
					v.add(CodeMalformed, at+".children["+strconv.Itoa(k)+"]", "a child reference must be a component id")
					continue
				}
				out = append(out, ref{id, at + ".children[" + strconv.Itoa(k) + "]"})
			}
		case ChildTemplate:
			out = append(out, ref{x.ComponentID, at + ".children.componentId"})
		case map[string]any:
			id, ok := x["componentId"].(string)
			if _, hasPath := x["path"].(string); !ok || !hasPath {
				v.add(CodeMalformed, at+".children", `a template must be {"componentId": id, "path": list}`)
				break
			}
			out = append(out, ref{id, at + ".children.componentId"})
		default:
			v.add(CodeMalformed, at+".children", "children must be a list of component ids or a template")
		}
	}
	if ch, ok := c.Props["child"]; ok {
		id, ok := ch.(string)
		if !ok {
			v.add(CodeMalformed, at+".child", "child must be a component id")
		} else {
			out = append(out, ref{id, at + ".child"})
		}
	}
	return out
}

// cycles reports each component that is its own ancestor, walking the
// child graph iteratively (a deep tree cannot exhaust the stack).
func (v *validator) cycles(cs []Component, edges [][]int) {
	const (
		unseen = iota
		open
		done
	)
	state := make([]uint8, len(cs))
	type frame struct{ node, next int }
	for start := range cs {
		if state[start] != unseen {
			continue
		}
		stack := []frame{{start, 0}}
		state[start] = open
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next == len(edges[top.node]) {
				state[top.node] = done
				stack = stack[:len(stack)-1]
				continue
			}
			child := edges[top.node][top.next]
			top.next++
			switch state[child] {
			case open:
				v.add(CodeCycle, "components["+strconv.Itoa(top.node)+"]",
					fmt.Sprintf("%q refers to its ancestor %q", cs[top.node].ID, cs[child].ID))
			case unseen:
				state[child] = open
				stack = append(stack, frame{child, 0})
			}
		}
	}
}

func hasKey(m map[string]int, k string) bool { _, ok := m[k]; return ok }

func typeList(c *Catalog) string {
	names := make([]string, 0, len(c.Components))
	for n := range c.Components {
		names = append(names, n)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// retryNotes is the part of a retry prompt that says what was invalid.
func retryNotes(ps []Problem) string {
	return "## Previous attempt was invalid — fix these and regenerate:\n" + problemLines(ps)
}

// problemLines lists ps one a line, as "- [code] path: message".
func problemLines(ps []Problem) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString("- " + p.String() + "\n")
	}
	return b.String()
}
