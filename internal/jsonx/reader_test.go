package jsonx

import "testing"

// readPairs reads an object of string members the way a schema-aware
// caller does, and returns them in document order, or ok false when the
// reader stopped.
func readPairs(r *Reader) (pairs []string, ok bool) {
	if !r.Open('{') {
		return nil, false
	}
	for i := 0; r.More(i, '}'); i++ {
		name := r.Name()
		v, null := r.Str()
		if null {
			v = "<null>"
		}
		pairs = append(pairs, name, v)
	}
	return pairs, r.OK() && r.End()
}

func TestReaderReadsMembersInOrder(t *testing.T) {
	data := []byte(" {\"a\" : \"x\\ny\" ,\n\"b\\u00e9\":null,\"c\":\"\xff\"}\t")
	pairs, ok := readPairs(NewReader(data))
	want := []string{"a", "x\ny", "bé", "<null>", "c", "\ufffd"}
	if !ok || len(pairs) != len(want) {
		t.Fatalf("read %q, ok %v; want %q", pairs, ok, want)
	}
	for i := range want {
		if pairs[i] != want[i] {
			t.Errorf("pair %d: %q, want %q", i, pairs[i], want[i])
		}
	}
	copy(data, "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXX")
	if pairs[1] != "x\ny" {
		t.Errorf("a string shares the caller's bytes: %q", pairs[1])
	}
}

func TestReaderStopsAtWhatItWasNotAskedFor(t *testing.T) {
	for _, doc := range []string{
		`{"a":1}`, `{"a":"x",}`, `{"a":"x"`, `{"a" "x"}`, `{,"a":"x"}`, `{"a":"x"} {}`,
		`{"a":"x\q"}`, `{"a":nul}`, `["a"]`, `{"a":"x"`, ``,
	} {
		if pairs, ok := readPairs(NewReader([]byte(doc))); ok {
			t.Errorf("%s: read %q", doc, pairs)
		}
	}
}

func TestReaderBackAndValue(t *testing.T) {
	r := NewReader([]byte(`[{"k":[1,{"n":"v"}]}, "s", null]`))
	if !r.Open('[') || !r.More(0, ']') {
		t.Fatal("no first element")
	}
	at := r.Mark()
	if _, null := r.Str(); null || r.OK() {
		t.Fatal("read an object as a string")
	}
	r.Back(at)
	v, ok := r.Value()
	if !ok || v.Kind() != "object" {
		t.Fatalf("value %v, ok %v", v.Kind(), ok)
	}
	d := &Decoder{}
	inner := d.Array(must(d.Object(v).Get("k")))
	if got := d.Object(inner[1]).Str("n"); got != "v" || d.Err() != nil {
		t.Fatalf("read %q through the Value, error %v", got, d.Err())
	}
	if !r.More(1, ']') {
		t.Fatal("no second element")
	}
	if s, _ := r.Str(); s != "s" {
		t.Fatalf("second element %q", s)
	}
	if !r.More(2, ']') || !r.Null() || r.More(3, ']') || !r.End() {
		t.Fatal("the third element is not the last, a null")
	}
}

func must(v Value, ok bool) Value {
	if !ok {
		panic("absent")
	}
	return v
}
