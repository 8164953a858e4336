package codes

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestCodesDeclaredOnce fails when a code is declared twice (two
// constants with one value: one meaning, one declaration), when one
// constant name stands for different codes in different packages (three
// CodeUnavailable meaning three things), or when a code constant is not
// an agui.Code or not in the UPPER_SNAKE form every code has.
func TestCodesDeclaredOnce(t *testing.T) {
	src := scanRepo(t)
	form := regexp.MustCompile(`^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$`)
	byValue := map[string][]constant{}
	byName := map[string]map[string]constant{}
	for _, c := range src.consts {
		if !c.typed {
			t.Errorf("%s: %s is not an agui.Code: every code constant is one", c.pos, c.qualified())
		}
		if !form.MatchString(c.value) {
			t.Errorf("%s: %s = %q is not an UPPER_SNAKE code", c.pos, c.qualified(), c.value)
		}
		byValue[c.value] = append(byValue[c.value], c)
		if byName[c.name] == nil {
			byName[c.name] = map[string]constant{}
		}
		byName[c.name][c.value] = c
	}
	for v, cs := range byValue {
		if len(cs) > 1 {
			var where []string
			for _, c := range cs {
				where = append(where, c.qualified()+" ("+c.pos+")")
			}
			t.Errorf("%s is declared %d times: %s; declare it once and refer to that", v, len(cs), strings.Join(where, ", "))
		}
	}
	for name, vs := range byName {
		if len(vs) > 1 {
			var where []string
			for _, c := range vs {
				where = append(where, c.qualified()+" = "+c.value)
			}
			t.Errorf("%s names %d different codes: %s; name each for what it means", name, len(vs), strings.Join(where, ", "))
		}
	}
}

// TestCodeLiteralsDeclared fails when an error is built with a code
// written as a string (agui.NewError("X", …), a Code: "X" field, a
// "code": "X" entry, agui.Code("X")) that no constant declares: a
// misspelt code, or one the registry does not know.
func TestCodeLiteralsDeclared(t *testing.T) {
	src := scanRepo(t)
	declared := map[string]bool{}
	for _, c := range src.consts {
		declared[c.value] = true
	}
	if len(src.literals) == 0 {
		t.Fatal("found no code literal; the scan is broken (aguitest's samples have some)")
	}
	for _, l := range src.literals {
		if !declared[l.value] {
			t.Errorf("%s: code %q is declared by no constant; declare it as an agui.Code and list it in docs/errors.md", l.pos, l.value)
		}
	}
}

// TestCodesUsed fails on a code constant nothing outside its declaration
// refers to: a code the project cannot emit is dead code, and a lie in
// the registry.
func TestCodesUsed(t *testing.T) {
	src := scanRepo(t)
	for _, c := range src.consts {
		if src.refs[c.qualified()] == 0 {
			t.Errorf("%s: %s (%s) is never used; delete it", c.pos, c.qualified(), c.value)
		}
	}
}

// TestRegistryMatchesSource holds docs/errors.md to the source: each code
// listed once, under the constant that declares it; each declared code
// listed; no listed code that nothing declares; and, for each refusal the
// source builds (a RequestError with an http.Status constant and a code
// constant), its status named in the code's "answered as" cell.
func TestRegistryMatchesSource(t *testing.T) {
	src := scanRepo(t)
	rows := readRegistry(t)
	byCode := map[string]registry{}
	for _, r := range rows {
		if prev, ok := byCode[r.code]; ok {
			t.Errorf("docs/errors.md:%d: %s is listed again (first at line %d)", r.line, r.code, prev.line)
			continue
		}
		byCode[r.code] = r
	}
	declared := map[string]constant{}
	byConst := map[string]constant{}
	for _, c := range src.consts {
		declared[c.value] = c
		byConst[c.qualified()] = c
		r, ok := byCode[c.value]
		switch {
		case !ok:
			t.Errorf("%s: %s (%s) is missing from docs/errors.md", c.pos, c.value, c.qualified())
		case r.constant != c.qualified():
			t.Errorf("docs/errors.md:%d: %s is listed as %s; it is declared as %s (%s)", r.line, r.code, r.constant, c.qualified(), c.pos)
		}
	}
	for _, r := range rows {
		if _, ok := declared[r.code]; !ok {
			t.Errorf("docs/errors.md:%d: %s is declared by no constant of the source; delete the row or declare the code", r.line, r.code)
		}
	}
	if len(src.answers) < 10 {
		t.Fatalf("found %d refusals; the scan is broken", len(src.answers))
	}
	for _, a := range src.answers {
		c, ok := byConst[a.pkg+"."+a.name]
		if !ok {
			continue // a code the scan cannot resolve (CodeOf(err)); the literal checks cover strings
		}
		r, ok := byCode[c.value]
		if !ok {
			continue // reported above
		}
		if !regexp.MustCompile(`\b` + strconv.Itoa(a.status) + `\b`).MatchString(r.answered) {
			t.Errorf("%s: %s is answered with %d, which docs/errors.md:%d does not name (%q)", a.pos, c.value, a.status, r.line, r.answered)
		}
	}
}

// TestOneJSONErrorWriter fails when anything but core's
// RequestError.WriteHTTP writes the JSON error body: a struct tagged
// "error" and "code" built elsewhere, or gin's AbortWithStatusJSON. The
// one writer moves the read deadline so that no refusal waits for an
// unread body; a second one would forget. A tool's error result (loop's
// codedErrorResult) shares the field names but is content for the model,
// not an HTTP body.
func TestOneJSONErrorWriter(t *testing.T) {
	src := scanRepo(t)
	allowed := map[string]bool{"WriteHTTP": true, "codedErrorResult": true}
	found := false
	for _, b := range src.bodies {
		found = found || b.value == "WriteHTTP"
		if !allowed[b.value] {
			t.Errorf("%s: %s builds a JSON error body; answer with core.RequestError's WriteHTTP", b.pos, b.value)
		}
	}
	if !found {
		t.Error("found no JSON error body in WriteHTTP; the scan is broken")
	}
	for _, c := range src.ginJSON {
		t.Errorf("%s: %s aborts with gin's JSON writer; answer with core.RequestError's WriteHTTP", c.pos, c.value)
	}
}
