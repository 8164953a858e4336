package aguitest

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agui-go/agui"
)

func TestStandardFixtureShape(t *testing.T) {
	evs := StandardFixture()
	if len(evs) != FixtureEvents {
		t.Fatalf("%d events, want %d", len(evs), FixtureEvents)
	}
	counts := map[agui.EventType]int{}
	for _, ev := range evs {
		counts[ev.Type()]++
		if ts := agui.BaseOf(ev).Timestamp; ts != FixtureTimestamp {
			t.Errorf("%s timestamp %d", ev.Type(), ts)
		}
	}
	want := map[agui.EventType]int{
		agui.TypeRunStarted: 1, agui.TypeTextMessageStart: 1, agui.TypeTextMessageContent: FixtureDeltas,
		agui.TypeTextMessageEnd: 1, agui.TypeToolCallStart: 1, agui.TypeToolCallArgs: FixtureArgChunks,
		agui.TypeToolCallEnd: 1, agui.TypeToolCallResult: 1, agui.TypeStateSnapshot: 1, agui.TypeRunFinished: 1,
	}
	for typ, n := range want {
		if counts[typ] != n {
			t.Errorf("%d %s events, want %d", counts[typ], typ, n)
		}
	}
	if evs[0].Type() != agui.TypeRunStarted || evs[len(evs)-1].Type() != agui.TypeRunFinished {
		t.Errorf("run starts with %s and ends with %s", evs[0].Type(), evs[len(evs)-1].Type())
	}
}

func TestFixtureData(t *testing.T) {
	var args strings.Builder
	for i := range FixtureArgChunks {
		args.WriteString(FixtureArgChunk(i))
	}
	if args.String() != FixtureToolArgs || len(FixtureToolArgs) != 121 {
		t.Errorf("argument chunks join to %q (%d bytes)", args.String(), len(FixtureToolArgs))
	}
	if len(FixtureToolResult) != 112 {
		t.Errorf("tool result is %d bytes, want 112", len(FixtureToolResult))
	}
	seen := map[string]bool{}
	for i := range FixtureDeltas {
		d := FixtureDelta(i)
		if len(d) != 20 {
			t.Fatalf("delta %d is %d bytes: %q", i, len(d), d)
		}
		seen[d] = true
	}
	if len(seen) != FixtureDeltas {
		t.Errorf("%d distinct deltas, want %d", len(seen), FixtureDeltas)
	}
	if d := FixtureDelta(0); d != "the fox 000 ........" {
		t.Errorf("delta 0 = %q", d)
	}
	state, err := json.Marshal(FixtureState())
	if err != nil {
		t.Fatal(err)
	}
	if len(state) != 2104 {
		t.Errorf("state marshals to %d bytes, want 2104", len(state))
	}
}

// TestStandardFixturePayloadSize checks the fixture against the published fixture size: one
// run framed as SSE is 127,230 bytes. Member order may differ from the
// peers' harness; that does not change the size.
func TestStandardFixturePayloadSize(t *testing.T) {
	var out []byte
	for _, ev := range StandardFixture() {
		var err error
		if out, err = agui.AppendSSE(out, ev); err != nil {
			t.Fatal(err)
		}
	}
	if len(out) != FixturePayloadBytes {
		t.Errorf("one run is %d bytes of SSE, want %d", len(out), FixturePayloadBytes)
	}
	frames := bytes.Split(bytes.TrimSuffix(out, []byte("\n\n")), []byte("\n\n"))
	if len(frames) != FixtureEvents {
		t.Fatalf("%d frames, want %d", len(frames), FixtureEvents)
	}
	for i, f := range frames {
		if !bytes.HasPrefix(f, []byte("data: ")) || !json.Valid(f[len("data: "):]) {
			t.Fatalf("frame %d is not a data line of JSON: %q", i, f)
		}
	}
}

func TestStandardFixtureIsFresh(t *testing.T) {
	a, b := StandardFixture(), StandardFixture()
	a[2].(*agui.TextMessageContent).Delta = "changed"
	if b[2].(*agui.TextMessageContent).Delta == "changed" {
		t.Error("two calls share events")
	}
}
