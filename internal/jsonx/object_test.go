package jsonx

import (
	"encoding/json"
	"reflect"
	"testing"
)

// open parses data, which must be a JSON object, and opens it.
func open(t *testing.T, d *Decoder, data string) *Object {
	t.Helper()
	root, err := ParseObject([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	return d.Object(root)
}

func TestObjectGetters(t *testing.T) {
	d := &Decoder{}
	o := open(t, d, `{"s":"a","dup":1,"dup":2,"null":null,"b":true,"i":3,"raw":{ "x" : [1, 2] },`+
		`"strs":["p","q"],"m":{"k":1},"e":"two","child":{"c":"d"}}`)
	if v, ok := o.Get("dup"); !ok || string(d.Opaque(v)) != "2" {
		t.Errorf("a repeated name reads %s, want its last value 2", d.Opaque(v))
	}
	if v, ok := o.Get("absent"); ok || v.Kind() != "nothing" || v.Path() != "absent" {
		t.Errorf("absent member: ok %v, kind %s, path %q", ok, v.Kind(), v.Path())
	}
	if _, ok := o.Optional("null"); ok {
		t.Error("an optional null reads as present")
	}
	if v, ok := o.Required("null"); !ok || !v.IsNull() {
		t.Error("a required null does not read as null")
	}
	if got := o.Str("s"); got != "a" {
		t.Errorf("Str = %q", got)
	}
	if got := o.OptStr("absent"); got != "" {
		t.Errorf("OptStr of an absent member = %q", got)
	}
	if got := o.OptBool("b"); got == nil || !*got {
		t.Errorf("OptBool = %v", got)
	}
	if got := o.OptInt("i", 0, 10); got == nil || *got != 3 {
		t.Errorf("OptInt = %v", got)
	}
	if got := o.OptInt("null", 0, 10); got != nil {
		t.Errorf("OptInt of null = %v, want nil", *got)
	}
	if got := o.RawValue("null"); string(got) != "null" {
		t.Errorf("RawValue of null = %s", got)
	}
	if got, ok := o.OptRaw("raw").(json.RawMessage); !ok || string(got) != `{"x":[1,2]}` {
		t.Errorf("OptRaw = %#v", o.OptRaw("raw"))
	}
	if got := o.OptRaw("null"); got != nil {
		t.Errorf("OptRaw of null = %#v, want a nil interface", got)
	}
	if got := o.OptStrings("strs"); !reflect.DeepEqual(got, []string{"p", "q"}) {
		t.Errorf("OptStrings = %q", got)
	}
	if got := o.OptMap("m"); !reflect.DeepEqual(got, map[string]any{"k": json.Number("1")}) {
		t.Errorf("OptMap = %#v", got)
	}
	if got := o.Array("absent", false); got != nil {
		t.Errorf("an absent optional array = %#v, want nil", got)
	}
	if got := o.Enum("e", true, "number", "one", "two"); got != "two" {
		t.Errorf("Enum = %q", got)
	}
	if got := o.Enum("absent", false, "number", "one"); got != "" {
		t.Errorf("Enum of an absent optional member = %q", got)
	}
	c, ok := o.Object("child", true)
	if !ok || c.Path() != "child" || c.Str("c") != "d" {
		t.Errorf("Object: ok %v, path %q", ok, c.Path())
	}
	if d.Err() != nil {
		t.Fatalf("valid reads failed: %v", d.Err())
	}
}

func TestObjectErrors(t *testing.T) {
	cases := []struct {
		doc  string
		read func(o *Object)
		want string
	}{
		{`{}`, func(o *Object) { o.Str("id") }, "id: required"},
		{`{"a":{}}`, func(o *Object) { a, _ := o.Object("a", true); a.Array("list", true) }, "a.list: required"},
		{`{"role":"robot"}`, func(o *Object) { o.Enum("role", true, "role", "user") }, `role: unknown role "robot"`},
		{`{"role":"r\u00f6bot"}`, func(o *Object) { o.Enum("role", true, "role", "user") }, `role: unknown role "röbot"`},
		{`{"b":"yes"}`, func(o *Object) { o.OptBool("b") }, "b: expected boolean, got string"},
		{`{"i":11}`, func(o *Object) { o.OptInt("i", 0, 10) }, "i: integer 11 out of range [0, 10]"},
		{`{"x y":{"z":[0,"s"]}}`, func(o *Object) { x, _ := o.Object("x y", true); x.OptStrings("z") },
			`["x y"].z[0]: expected string, got number`},
	}
	for _, c := range cases {
		d := &Decoder{}
		c.read(open(t, d, c.doc))
		if d.Err() == nil || d.Err().Error() != c.want {
			t.Errorf("%s: error %v, want %q", c.doc, d.Err(), c.want)
		}
	}
}

func TestObjectFinish(t *testing.T) {
	doc := `{"known":1,"dup":1,"dup":2,"child":{"x":1,"extra":true}}`
	read := func(d *Decoder) {
		o := open(t, d, doc)
		o.Get("known")
		o.Get("dup")
		c, _ := o.Object("child", true)
		c.Get("x")
		c.Finish()
		o.Finish()
	}
	lenient := &Decoder{}
	read(lenient)
	if lenient.Err() != nil {
		t.Errorf("lenient decoder rejected an unknown member: %v", lenient.Err())
	}
	strict := &Decoder{Strict: true}
	read(strict)
	if strict.Err() == nil || strict.Err().Error() != "child.extra: unknown field" {
		t.Errorf("strict decoder: %v, want child.extra: unknown field", strict.Err())
	}
	all := &Decoder{Strict: true}
	o := open(t, all, doc)
	o.Get("known")
	o.Get("dup")
	o.Get("child")
	o.Finish()
	if all.Err() != nil {
		t.Errorf("every name asked for, yet %v", all.Err())
	}
}
