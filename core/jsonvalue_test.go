package core

import (
	"bytes"
	"encoding/json"
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

var stringSamples = []string{
	"",
	"plain ascii",
	`quote " backslash \ slash /`,
	"<script>&amp;</script>",
	"\x00\x01\x1f\x7f",
	"tab\tnewline\ncr\rbs\bff\f",
	"héllo wörld ✓ 日本語 🙂",
	"line\u2028para\u2029end",
	"bad \xff utf8 \xc3",
	"truncated \xe2\x82",
	"\xed\xa0\x80 surrogate half",
}

func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range stringSamples {
		got := string(appendString(nil, s))
		if want := stdJSON(t, s); got != want {
			t.Errorf("appendString(%q)\n got %s\nwant %s", s, got, want)
		}
	}
}

func TestAppendStringDoesNotEscapeHTML(t *testing.T) {
	if got := string(appendString(nil, "<a href='x'>&</a>")); got != `"<a href='x'>&</a>"` {
		t.Errorf("got %s", got)
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range stringSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := appendString([]byte("x"), s)
		if want := "x" + stdJSON(t, s); string(got) != want {
			t.Errorf("appendString(%q)\n got %s\nwant %s", s, got, want)
		}
	})
}

func TestAppendValueMatchesEncodingJSON(t *testing.T) {
	type plain struct {
		A int    `json:"a"`
		B string `json:"b,omitempty"`
	}
	values := []any{
		nil, true, false, "s<>&", 0.0, -0.0, 1.0, -1.5, 1e20, 1e21, 123456789012345678.0, 1e-6, 1e-7, 5e-324,
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
		got, err := appendValue([]byte("x"), v)
		if err != nil {
			t.Errorf("appendValue(%#v): %v", v, err)
			continue
		}
		if want := "x" + stdJSON(t, v); string(got) != want {
			t.Errorf("appendValue(%#v)\n got %s\nwant %s", v, got, want)
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
		got, err := appendValue([]byte("x"), json.RawMessage(c.in))
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if string(got) != "x"+c.want {
			t.Errorf("%q: got %s, want x%s", c.in, got, c.want)
		}
	}
	for _, bad := range []string{"{", "[1,]", "nul", "1 2"} {
		got, err := appendValue([]byte("x"), json.RawMessage(bad))
		if err == nil {
			t.Errorf("%q: no error", bad)
		}
		if string(got) != "x" {
			t.Errorf("%q: dst changed to %q on error", bad, got)
		}
	}
}

func TestAppendValueErrors(t *testing.T) {
	for _, v := range []any{math.NaN(), math.Inf(-1), float32(math.Inf(1)), json.Number("0x1"), make(chan int), func() {},
		[]any{1.0, math.NaN()}, map[string]any{"a": map[string]any{"b": math.Inf(1)}}} {
		got, err := appendValue([]byte("x"), v)
		if err == nil {
			t.Errorf("appendValue(%T) succeeded: %s", v, got)
		}
	}
}

func TestAppendValueOutputIsOneLine(t *testing.T) {
	v := map[string]any{"text": "a\nb\r\nc", "raw": json.RawMessage("[\n1,\n2\n]"), "n": []any{"\u2028"}}
	got, err := appendValue(nil, v)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.ContainsAny(got, "\r\n") {
		t.Errorf("output spans lines: %q", got)
	}
}
