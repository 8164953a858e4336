package core

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/agui-go/agui"
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
	events := map[string]func(string) agui.Event{
		"text":      func(d string) agui.Event { return &agui.TextMessageContent{MessageID: "m", Delta: d} },
		"reasoning": func(d string) agui.Event { return &agui.ReasoningMessageContent{MessageID: "m", Delta: d} },
		"args":      func(d string) agui.Event { return &agui.ToolCallArgs{ToolCallID: "c", Delta: d} },
	}
	for name, big := range inputs {
		for kind, mk := range events {
			z := sizer{limit: limit}
			pieces, err := z.split(mk(big))
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

// The case: 4 MiB of invalid UTF-8 said by an agent (each byte a
// six-byte escape, 24 MiB of JSON) reaches the consumer as deltas that
// each fit the frame limit and add up to the original; the run succeeds.
func TestRunSplitsOversizedText(t *testing.T) {
	big := strings.Repeat("\xff", 4<<20)
	evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		return agui.Success(), rc.Say(big)
	})
	last[*agui.RunFinished](t, evs)
	var text strings.Builder
	pieces := 0
	for _, ev := range evs {
		if e, ok := ev.(*agui.TextMessageContent); ok {
			if _, err := agui.AppendSSE(nil, ev); err != nil {
				t.Fatal(err)
			}
			text.WriteString(e.Delta)
			pieces++
		}
	}
	if text.String() != big || pieces < 3 {
		t.Fatalf("%d pieces adding up to %d bytes", pieces, text.Len())
	}
}

// Any other event over the limit fails the emit that produced it with a
// SERIALIZATION error, is not delivered, and the run ends with RUN_ERROR
// SERIALIZATION even when the agent ignores the error.
func TestOversizedEventFailsEmit(t *testing.T) {
	var emitErr error
	evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		emitErr = rc.Emit(&agui.Custom{Name: "big", Value: strings.Repeat("x", agui.MaxEventSize)})
		return agui.Success(), nil
	})
	if agui.CodeOf(emitErr) != agui.CodeSerialization {
		t.Fatalf("Emit error %v, want SERIALIZATION", emitErr)
	}
	equalTypes(t, evs, agui.TypeRunStarted, agui.TypeRunError)
	if e := last[*agui.RunError](t, evs); e.Code != string(agui.CodeSerialization) {
		t.Fatalf("RUN_ERROR = %+v", e)
	}
}

// A result too large for RUN_FINISHED ends the run with RUN_ERROR
// SERIALIZATION instead.
func TestOversizedResultFailsRun(t *testing.T) {
	evs := run(t, func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		rc.SetResult(strings.Repeat("x", agui.MaxEventSize))
		return agui.Success(), nil
	})
	if e := last[*agui.RunError](t, evs); e.Code != string(agui.CodeSerialization) {
		t.Fatalf("RUN_ERROR = %+v", e)
	}
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
	z := sizer{limit: agui.MaxEventSize}
	for name, v := range values {
		ev := &agui.StateSnapshot{Snapshot: v}
		enc, err := ev.AppendJSON(nil)
		if err != nil {
			t.Fatal(name, err)
		}
		if !z.surelyFits(ev) {
			t.Errorf("%s: no bound for a small snapshot", name)
		}
		if n := jsonBound(v, z.limit, 0); n < len(enc)-len(`{"type":"STATE_SNAPSHOT","snapshot":}`) {
			t.Errorf("%s: bound %d below the encoding's %d bytes", name, n, len(enc))
		}
	}
	for name, v := range map[string]any{"too large": strings.Repeat("x", agui.MaxEventSize), "NaN": map[string]any{"n": math.NaN()}, "cyclic": cyclic} {
		ev := &agui.StateSnapshot{Snapshot: v}
		if z.surelyFits(ev) {
			t.Errorf("%s: bounded as fitting", name)
		}
		if err := z.check(ev); agui.CodeOf(err) != agui.CodeSerialization {
			t.Errorf("%s: check = %v, want a SERIALIZATION error", name, err)
		}
	}
}
