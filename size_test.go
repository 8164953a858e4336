package agui

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// A delta whose JSON would exceed the limit is split into deltas that
// each encode within it and add up to the original, whatever the bytes:
// invalid UTF-8 (six-byte escapes), multi-byte characters, control
// characters; for text, reasoning and tool arguments alike.
func TestOversizedDeltasSplitLosslessly(t *testing.T) {
	const limit = 4096
	inputs := map[string]string{
		"invalid UTF-8":      strings.Repeat("\xff", 3000),
		"multi-byte":         strings.Repeat("é€😀", 1000),
		"control characters": strings.Repeat("\x01a", 2000),
		"continuation bytes": strings.Repeat("\x80", 3000) + strings.Repeat("😀\xf0\x9f", 500),
	}
	events := map[string]func(string) Event{
		"text":      func(d string) Event { return &TextMessageContent{MessageID: "m", Delta: d} },
		"reasoning": func(d string) Event { return &ReasoningMessageContent{MessageID: "m", Delta: d} },
		"args":      func(d string) Event { return &ToolCallArgs{ToolCallID: "c", Delta: d} },
	}
	for name, big := range inputs {
		for kind, mk := range events {
			z := EventSizer{limit: limit}
			pieces, err := z.Fit(mk(big))
			if err != nil || len(pieces) < 2 {
				t.Fatalf("%s %s: %d pieces, %v", name, kind, len(pieces), err)
			}
			var sum, encoded strings.Builder
			whole, _ := mk(big).AppendJSON(nil)
			for _, p := range pieces {
				b, err := p.AppendJSON(nil)
				if err != nil || len(b) > limit {
					t.Fatalf("%s %s: piece of %d bytes, %v", name, kind, len(b), err)
				}
				d, _, _ := deltaOf(p)
				sum.WriteString(d)
				encoded.Write(jsonDelta(t, b))
			}
			if sum.String() != big {
				t.Fatalf("%s %s: the pieces do not add up to the original", name, kind)
			}
			// What a client decodes is the same as for the unsplit delta.
			if encoded.String() != string(jsonDelta(t, whole)) {
				t.Fatalf("%s %s: the pieces decode differently from the whole", name, kind)
			}
		}
	}
}

// jsonDelta returns the decoded delta of an event's JSON.
func jsonDelta(t *testing.T, b []byte) []byte {
	t.Helper()
	var v struct{ Delta string }
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return []byte(v.Delta)
}

// The size check of a state snapshot bounds its JSON without encoding it:
// the bound is never below the encoding, a snapshot over the limit is
// still refused, and a value the bound cannot follow (a number that does
// not encode, a map that contains itself) still fails the check with the
// encoder's error.
func TestSnapshotSizeBound(t *testing.T) {
	cyclic := map[string]any{}
	cyclic["self"] = cyclic
	values := map[string]any{
		"string":   "\x01\xff\u2028\"\\\x00",
		"key":      map[string]any{"\x01\xff\u2028\"\\\x00": nil},
		"nil map":  map[string]any(nil),
		"nil list": []any(nil),
		"escapes":  map[string]any{"\x01\xff\u2028": []any{"\"\\\x00", 1.5e-300, -1.2345678901234567e-308, int64(-1 << 63), true, nil, map[string]any{}}},
		"fixture":  map[string]any{"list": []any{float64(1), "two", []any{}, map[string]any{"k": false}}},
	}
	var z EventSizer
	for name, v := range values {
		ev := &StateSnapshot{Snapshot: v}
		enc, err := ev.AppendJSON(nil)
		if err != nil {
			t.Fatal(name, err)
		}
		if !z.surelyFits(ev) {
			t.Errorf("%s: no bound for a small snapshot", name)
		}
		if n := jsonBound(v, z.max(), 0); n < len(enc)-len(`{"type":"STATE_SNAPSHOT","snapshot":}`) {
			t.Errorf("%s: bound %d below the encoding's %d bytes", name, n, len(enc))
		}
	}
	for name, v := range map[string]any{"too large": strings.Repeat("x", MaxEventSize), "NaN": map[string]any{"n": math.NaN()}, "cyclic": cyclic} {
		ev := &StateSnapshot{Snapshot: v}
		if z.surelyFits(ev) {
			t.Errorf("%s: bounded as fitting", name)
		}
		if _, err := z.Fit(ev); CodeOf(err) != CodeSerialization {
			t.Errorf("%s: check = %v, want a SERIALIZATION error", name, err)
		}
	}
}
