package agui

import "testing"

func TestJSONPaths(t *testing.T) {
	tests := []struct{ got, want string }{
		{MemberPath("", "threadId"), "threadId"},
		{MemberPath("messages[2]", "role"), "messages[2].role"},
		{MemberPath("", "a b"), `["a b"]`},
		{MemberPath("tools[0]", "9lives"), `tools[0]["9lives"]`},
		{MemberPath("x", ""), `x[""]`},
		{MemberPath("x", "$ok_1"), "x.$ok_1"},
		{IndexPath("", 3), "[3]"},
		{IndexPath("content", 0), "content[0]"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

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
