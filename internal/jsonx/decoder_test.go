package jsonx

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"
)

func TestIntegers(t *testing.T) {
	valid := map[string]int64{
		"0": 0, "-0": 0, "1e3": 1000, "1.0": 1, "2.50e1": 25,
		"9007199254740991": MaxSafeInteger, "-9007199254740991": -MaxSafeInteger,
	}
	for text, want := range valid {
		d := &Decoder{}
		if got := d.Integer(memberN(t, d, text), -MaxSafeInteger, MaxSafeInteger); got != want || d.err != nil {
			t.Errorf("integer(%s) = %d, %v; want %d", text, got, d.err, want)
		}
	}
	invalid := map[string]string{
		"1.5":              "n: expected integer, got 1.5",
		"1e-1":             "n: expected integer, got 1e-1",
		"9007199254740992": "n: integer 9007199254740992 out of range [-9007199254740991, 9007199254740991]",
		"1e20":             "n: integer 1e20 out of range",
		`"3"`:              "n: expected integer, got string",
		"true":             "n: expected integer, got boolean",
	}
	for text, want := range invalid {
		d := &Decoder{}
		d.Integer(memberN(t, d, text), -MaxSafeInteger, MaxSafeInteger)
		if d.err == nil || d.err.Error() != want {
			t.Errorf("integer(%s) error = %v, want %q", text, d.err, want)
		}
	}
}

func TestFirstErrorSticks(t *testing.T) {
	d := &Decoder{}
	d.Fail("a", "first")
	d.Fail("b", "second")
	if d.err.Error() != "a: first" {
		t.Errorf("got %v", d.err)
	}
}

// memberN returns the value of member "n" of {"n": text}.
func memberN(t *testing.T, d *Decoder, text string) Value {
	t.Helper()
	root, err := ParseObject([]byte(`{"n":` + text + `}`))
	if err != nil {
		t.Fatal(err)
	}
	v, _ := d.Object(root).Get("n")
	return v
}

func TestDecoderReads(t *testing.T) {
	root, perr := ParseObject([]byte(`{"s":"a\u00e9\n","list":["x","y"],"empty":[],` +
		`"obj":{ "n" : 1.50, "deep" : [ true , null ] },"num":7}`))
	if perr != nil {
		t.Fatal(perr)
	}
	d := &Decoder{}
	if d.Err() != nil {
		t.Fatalf("a new decoder has an error: %v", d.Err())
	}
	o := d.Object(root)
	get := func(name string) Value {
		v, ok := o.Get(name)
		if !ok {
			t.Fatalf("member %s not found", name)
		}
		return v
	}
	if got := d.Str(get("s")); got != "aé\n" {
		t.Errorf("Str = %q", got)
	}
	elems := d.Array(get("list"))
	if len(elems) != 2 || elems[1].Path() != "list[1]" || d.Str(elems[1]) != "y" {
		t.Errorf("Array = %d elements, second at %q", len(elems), elems[1].Path())
	}
	if got := d.Array(get("empty")); got == nil || len(got) != 0 {
		t.Errorf("Array of [] = %#v, want empty and non-nil", got)
	}
	if got := d.Strings(get("list")); !slices.Equal(got, []string{"x", "y"}) {
		t.Errorf("Strings = %q", got)
	}
	if got := string(d.Opaque(get("obj"))); got != `{"n":1.50,"deep":[true,null]}` {
		t.Errorf("Opaque = %s, want it compacted, digits kept", got)
	}
	if got := string(d.Opaque(get("num"))); got != `7` {
		t.Errorf("Opaque of a number = %s", got)
	}
	want := map[string]any{"n": json.Number("1.50"), "deep": []any{true, nil}}
	if got := d.AnyObject(get("obj")); !reflect.DeepEqual(got, want) {
		t.Errorf("AnyObject = %#v, want %#v", got, want)
	}
	if d.Err() != nil {
		t.Fatalf("reads of the right kinds failed: %v", d.Err())
	}
}

func TestDecoderTypeErrors(t *testing.T) {
	cases := []struct {
		read func(d *Decoder, v Value)
		want string
	}{
		{func(d *Decoder, v Value) { d.Str(v) }, "a[0]: expected string, got number"},
		{func(d *Decoder, v Value) { d.Array(v) }, "a[0]: expected array, got number"},
		{func(d *Decoder, v Value) { d.Strings(v) }, "a[0]: expected array, got number"},
		{func(d *Decoder, v Value) { d.AnyObject(v) }, "a[0]: expected object, got number"},
		{func(d *Decoder, v Value) { d.Object(v).Str("x") }, "a[0]: expected object, got number"},
		{func(d *Decoder, v Value) { d.FailType(v, "thing") }, "a[0]: expected thing, got number"},
		{func(d *Decoder, v Value) { d.FailAt(v, "bad %d", 5) }, "a[0]: bad 5"},
	}
	for _, c := range cases {
		root, perr := ParseObject([]byte(`{"a":[1]}`))
		if perr != nil {
			t.Fatal(perr)
		}
		d := &Decoder{}
		a, _ := d.Object(root).Get("a")
		c.read(d, d.Array(a)[0])
		if d.Err() == nil || d.Err().Error() != c.want || d.Err().Malformed {
			t.Errorf("error %v, want %q (not malformed)", d.Err(), c.want)
		}
	}
}
