package jsonx

import (
	"strings"
	"testing"
)

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
		got := string(AppendString(nil, s))
		if want := stdJSON(t, s); got != want {
			t.Errorf("AppendString(%q)\n got %s\nwant %s", s, got, want)
		}
	}
}

// TestAppendStringEveryPosition puts each byte class that needs care at
// every position of strings up to 24 bytes, covering the word-at-a-time
// scan, its overlapping last word and the short-string loop.
func TestAppendStringEveryPosition(t *testing.T) {
	specials := []string{"\x00", "\x1f", " ", "\"", "\\", "\x7f", "\x80", "\xff", "é", "\u2028", "<"}
	for n := 0; n <= 24; n++ {
		for pos := 0; pos < n; pos++ {
			for _, sp := range specials {
				s := strings.Repeat("a", pos) + sp + strings.Repeat("b", n-pos-1)
				if got, want := string(AppendString(nil, s)), stdJSON(t, s); got != want {
					t.Fatalf("AppendString(%q)\n got %s\nwant %s", s, got, want)
				}
			}
		}
	}
}

func TestAppendStringDoesNotEscapeHTML(t *testing.T) {
	if got := string(AppendString(nil, "<a href='x'>&</a>")); got != `"<a href='x'>&</a>"` {
		t.Errorf("got %s", got)
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range stringSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := AppendString([]byte("x"), s)
		if want := "x" + stdJSON(t, s); string(got) != want {
			t.Errorf("AppendString(%q)\n got %s\nwant %s", s, got, want)
		}
	})
}
