package jsonx

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

// stdJSON encodes v with encoding/json, HTML escaping off: the reference
// the hand-written encoder must match byte for byte.
func stdJSON(t testing.TB, v any) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatalf("encoding/json: %v", err)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

func TestAppendValueMatchesEncodingJSON(t *testing.T) {
	type plain struct {
		A int    `json:"a"`
		B string `json:"b,omitempty"`
	}
	values := []any{
		nil, true, false, "s<>&", 0.0, math.Copysign(0, -1), 1.0, -1.5, 1e20, 1e21, 123456789012345678.0, 1e-6, 1e-7, 5e-324,
		math.MaxFloat64, float32(3.14), float32(1e-7), float32(1e21), 42, int64(-1 << 62), int32(7), uint64(1 << 63),
		json.Number("12.5e3"), []string{"a", "b"}, []string{}, map[string]string{"z": "1", "a": "2"},
		map[string]any{}, []any{}, map[string]any{"b": 1.0, "a": []any{nil, "x", map[string]any{"c": false}}},
		plain{A: 1}, &plain{A: 2, B: "<"}, []int{1, 2}, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		map[string]any(nil), []any(nil), []string(nil), map[string]string(nil),
	}
	manyKeys := map[string]any{}
	for i := range 40 {
		manyKeys[strings.Repeat("k", i%7)+string(rune('a'+i%26))+string(rune('0'+i%10))] = float64(i)
	}
	values = append(values, manyKeys)
	for _, v := range values {
		got, err := AppendValue([]byte("x"), v)
		if err != nil {
			t.Errorf("AppendValue(%#v): %v", v, err)
			continue
		}
		if want := "x" + stdJSON(t, v); string(got) != want {
			t.Errorf("AppendValue(%#v)\n got %s\nwant %s", v, got, want)
		}
	}
}

func TestAppendValueRawMessage(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", "null"},
		{"null", "null"},
		{" {\n \"a\" : [ 1 , \"<&>\" ] }\n", `{"a":[1,"<&>"]}`},
		{`"x"`, `"x"`},
	}
	for _, c := range cases {
		got, err := AppendValue([]byte("x"), json.RawMessage(c.in))
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if string(got) != "x"+c.want {
			t.Errorf("%q: got %s, want x%s", c.in, got, c.want)
		}
	}
	for _, bad := range []string{"{", "[1,]", "nul", "1 2"} {
		got, err := AppendValue([]byte("x"), json.RawMessage(bad))
		if err == nil {
			t.Errorf("%q: no error", bad)
		}
		if string(got) != "x" {
			t.Errorf("%q: dst changed to %q on error", bad, got)
		}
	}
}

func TestIsNumber(t *testing.T) {
	for _, s := range []string{"0", "-0", "12", "-1.5", "1e9", "1E+9", "2.5e-3", "0.0"} {
		if !isNumber(s) {
			t.Errorf("isNumber(%q) = false", s)
		}
	}
	for _, s := range []string{"", "-", "01", "1.", ".5", "1e", "1e+", "+1", "0x1", "1 ", "{}", `"1"`, "NaN"} {
		if isNumber(s) {
			t.Errorf("isNumber(%q) = true", s)
		}
	}
}

func TestAppendValueErrors(t *testing.T) {
	for _, v := range []any{math.NaN(), math.Inf(-1), float32(math.Inf(1)), json.Number("0x1"), json.Number("{}"), make(chan int), func() {},
		[]any{1.0, math.NaN()}, map[string]any{"a": map[string]any{"b": math.Inf(1)}}} {
		got, err := AppendValue([]byte("x"), v)
		if err == nil {
			t.Errorf("AppendValue(%T) succeeded: %s", v, got)
		}
	}
}

func TestAppendValueOutputIsOneLine(t *testing.T) {
	v := map[string]any{"text": "a\nb\r\nc", "raw": json.RawMessage("[\n1,\n2\n]"), "n": []any{"\u2028"}}
	got, err := AppendValue(nil, v)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.ContainsAny(got, "\r\n") {
		t.Errorf("output spans lines: %q", got)
	}
}

func TestAppendValueRejectsCycles(t *testing.T) {
	m := map[string]any{"a": 1.0}
	m["self"] = m
	a := []any{nil}
	a[0] = a
	for _, v := range []any{m, a, map[string]any{"list": []any{m}}} {
		got, err := AppendValue([]byte("x"), v)
		if err == nil {
			t.Fatalf("a value that contains itself encoded: %.40s…", got)
		}
		if !strings.Contains(err.Error(), "does it contain itself?") || len(err.Error()) > 400 {
			t.Errorf("error %.500q", err)
		}
	}
	_, err := AppendValue(nil, m)
	var ee *EncodeError
	if !errors.As(err, &ee) || !strings.HasPrefix(err.Error(), "self.self.self.") {
		t.Errorf("error %.100q does not locate the cycle", err)
	}
	var deep tooDeepError
	if !errors.As(err, &deep) {
		t.Errorf("error %.100q does not unwrap to its cause", err)
	}
}

func TestAppendValueDeepButFinite(t *testing.T) {
	// As deep as encoding/json decodes: it must encode again.
	v := any("leaf")
	for i := 0; i < maxDepth; i++ {
		if i%2 == 0 {
			v = map[string]any{"k": v}
		} else {
			v = []any{v}
		}
	}
	got, err := AppendValue(nil, v)
	if err != nil {
		t.Fatalf("%d levels: %v", maxDepth, err)
	}
	var back any
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatalf("output does not decode: %v", err)
	}
	if _, err := AppendValue(nil, []any{v}); err == nil {
		t.Errorf("%d levels encoded", maxDepth+1)
	}
}
