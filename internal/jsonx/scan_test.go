package jsonx

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// scanCases are documents whose validity and string values the scanner
// must see as encoding/json does.
var scanCases = []string{
	`{}`, `[]`, ` { "a" : [ 1 , -0.5e+3 , true , false , null ] } `, `"\u00e9\ud83d\ude00"`,
	`"\ud800"`, `"\ud800\u0041"`, `"\udc00\ud800"`, "\"\xff\xfe\"", `"a\/b\\c\"d\b\f\n\r\t"`,
	`01`, `1.`, `.5`, `-`, `1e`, `1e+`, `+1`, `[1,]`, `{"a":1,}`, `{"a"}`, `{1:2}`, `"\x"`, `"\u12"`,
	"\"a\x01\"", `tru`, `nul`, `[`, `{"a":[}`, `"`, ``, ` `, `1 2`, `{"a":1}x`, `[[[[]]]]`,
	// Escapes in ASCII strings, unquoted as they are scanned; in
	// non-ASCII ones, after.
	`["{\"q\":\"x\"}","a\u00e9\n","\ud83d\ude00x\t","\ud800\ud800","\udbff\udfff\u0000"]`,
	`["é\n","\"é\"", "x` + "\xff" + `\n", "\ud800é"]`, `"\ud800\u12"`, `"\ud800\`, `"a\"`,
	strings.Repeat("[", maxScanDepth) + strings.Repeat("]", maxScanDepth),
	strings.Repeat("[", maxScanDepth+1) + strings.Repeat("]", maxScanDepth+1),
}

func TestScanAgreesWithEncodingJSON(t *testing.T) {
	for _, c := range scanCases {
		checkScan(t, []byte(c))
	}
}

func FuzzScanAgreesWithEncodingJSON(f *testing.F) {
	for _, c := range scanCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkScan(t, data) })
}

// checkScan checks scan's verdict on data against json.Valid and, for a
// valid document, every plain value (strings as unquoted in the
// document's own copy) against json.Unmarshal with UseNumber, and each
// array's count of its elements; and that data is left as it was.
func checkScan(t *testing.T, data []byte) {
	t.Helper()
	orig := string(data)
	doc, ok := scan(data)
	if string(data) != orig {
		t.Fatalf("scan wrote into its input: %q, was %q", data, orig)
	}
	if ok != json.Valid(data) {
		t.Fatalf("scan(%q) ok = %v, json.Valid = %v", data, ok, !ok)
	}
	if !ok {
		return
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	var want any
	if err := dec.Decode(&want); err != nil {
		t.Fatalf("json: %v", err)
	}
	for i, n := range doc.nodes {
		if n.kind != '[' {
			continue
		}
		count := 0
		for j := int32(i) + 1; j < n.next; j = doc.nodes[j].next {
			count++
		}
		if int(n.val) != count {
			t.Fatalf("scan(%q): array node %d counts %d elements, holds %d", data, i, n.val, count)
		}
	}
	if got := doc.plainValue(0); !reflect.DeepEqual(got, want) {
		t.Fatalf("scan(%q) = %#v, encoding/json %#v", data, got, want)
	}
}

func TestScanMarksCompactContainers(t *testing.T) {
	doc, ok := scan([]byte(`{"a":[1,2],"b": [3]}`))
	if !ok {
		t.Fatal("not scanned")
	}
	if doc.nodes[0].plain {
		t.Error("an object with a space inside is marked compact")
	}
	if !doc.nodes[2].plain { // [1,2]
		t.Error("a compact array is not marked compact")
	}
}

// TestPlainWordsCountsExactly puts each byte that is not plain at every
// position of a 24-byte run: plainWords counts the plain bytes before it,
// or stops at the last whole word.
func TestPlainWordsCountsExactly(t *testing.T) {
	for _, sp := range []byte{'"', '\\', 0x00, 0x1f, 0x80, 0xff} {
		for pos := range 24 {
			b := []byte(strings.Repeat(" ", 24)) // ' ' is the lowest plain byte
			b[pos] = sp
			if got := plainWords(b); got != pos {
				t.Errorf("%q at %d: plainWords = %d", sp, pos, got)
			}
		}
	}
	if got := plainWords([]byte("0123456789a")); got != 8 {
		t.Errorf("plain 11 bytes: plainWords = %d, want 8 (the whole words)", got)
	}
}
