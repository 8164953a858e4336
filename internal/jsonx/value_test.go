package jsonx

import "testing"

func TestParse(t *testing.T) {
	kinds := map[string]string{
		`{}`: "object", `[1]`: "array", `"s"`: "string", `-1.5e3`: "number",
		`true`: "boolean", `false`: "boolean", ` null `: "null",
	}
	for doc, want := range kinds {
		v, err := Parse([]byte(doc))
		if err != nil {
			t.Errorf("Parse(%s): %v", doc, err)
			continue
		}
		if v.Kind() != want || v.IsNull() != (want == "null") || v.Path() != "" {
			t.Errorf("Parse(%s): kind %s, null %v, path %q", doc, v.Kind(), v.IsNull(), v.Path())
		}
	}
	for _, doc := range []string{``, `{`, `[1,]`, `1 2`, `nul`} {
		if _, err := Parse([]byte(doc)); err == nil || !err.Malformed || err.Path != "" {
			t.Errorf("Parse(%q) error %#v, want a malformed one", doc, err)
		}
	}
}

func TestParseObject(t *testing.T) {
	if _, err := ParseObject([]byte(` {"a":1} `)); err != nil {
		t.Errorf("an object: %v", err)
	}
	cases := map[string]string{
		`[1]`:  "expected a JSON object, got array",
		`null`: "expected a JSON object, got null",
		`{"a":1,}`: "invalid JSON at offset 8: " +
			"invalid character '}' looking for beginning of object key string",
	}
	for doc, want := range cases {
		_, err := ParseObject([]byte(doc))
		if err == nil || err.Error() != want || !err.Malformed {
			t.Errorf("ParseObject(%s) error %v, want %q (malformed)", doc, err, want)
		}
	}
}

func TestValuePaths(t *testing.T) {
	root, perr := Parse([]byte(`{"a":[{"b c":[0,1]}]}`))
	if perr != nil {
		t.Fatal(perr)
	}
	d := &Decoder{}
	a, _ := d.Object(root).Get("a")
	inner, _ := d.Object(d.Array(a)[0]).Get("b c")
	if got := d.Array(inner)[1].Path(); got != `a[0]["b c"][1]` {
		t.Errorf("path %q", got)
	}
}
