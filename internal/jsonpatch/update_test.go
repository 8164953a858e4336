package jsonpatch

import (
	"strings"
	"testing"

	"github.com/agui-go/agui"
)

// TestUpdatePathsChooseAlike holds the one "smaller of" rule: for the same
// change, Update (which diffs) and UpdateFromOps (which is handed the
// operations and next's size) choose the same event, and that event is the
// one whose JSON is shorter, the snapshot on a tie.
func TestUpdatePathsChooseAlike(t *testing.T) {
	seen := map[agui.EventType]bool{}
	// "<" is escaped by encoding/json but not on the wire: a rule measuring
	// json.Marshal's output would count the kept text six times over.
	for _, fill := range []string{"k", "<"} {
		for keep := 0; keep <= 120; keep += 4 {
			prev := map[string]any{"keep": strings.Repeat(fill, keep), "a": "x"}
			next := map[string]any{"keep": strings.Repeat(fill, keep), "a": strings.Repeat("z", 40)}
			ops, err := Diff(DeepCopy(prev), DeepCopy(next))
			if err != nil {
				t.Fatal(err)
			}
			db, _ := (&agui.StateDelta{Delta: ops}).AppendJSON(nil)
			sb, _ := (&agui.StateSnapshot{Snapshot: next}).AppendJSON(nil)
			size := len(sb) - len(`{"type":"STATE_SNAPSHOT","snapshot":}`) // next's JSON on the wire
			byDiff, err := Update(DeepCopy(prev), true, DeepCopy(next))
			if err != nil {
				t.Fatal(err)
			}
			byOps, err := UpdateFromOps(ops, DeepCopy(next), size)
			if err != nil {
				t.Fatal(err)
			}
			want := agui.TypeStateSnapshot
			if len(db) < len(sb) {
				want = agui.TypeStateDelta
			}
			if byDiff.Type() != want || byOps.Type() != want {
				t.Fatalf("fill %q keep=%d: delta %d bytes, snapshot %d bytes: Update chose %s, UpdateFromOps chose %s, want %s",
					fill, keep, len(db), len(sb), byDiff.Type(), byOps.Type(), want)
			}
			seen[want] = true
		}
	}
	if !seen[agui.TypeStateDelta] || !seen[agui.TypeStateSnapshot] {
		t.Fatalf("the sizes never crossed the rule's boundary: %v", seen)
	}
}

// TestSmallerTieGoesToSnapshot: equal encodings choose the snapshot, and a
// delta under the snapshot's floor wins without the snapshot being built.
func TestSmallerTieGoesToSnapshot(t *testing.T) {
	delta := &agui.StateDelta{Delta: []agui.PatchOp{{Op: "add", Path: "/a", Value: 1.0}}}
	db, _ := delta.AppendJSON(nil)
	// A snapshot whose event is exactly as long as the delta's.
	snapOf := func(n int) *agui.StateSnapshot {
		return &agui.StateSnapshot{Snapshot: strings.Repeat("s", n)}
	}
	base, _ := snapOf(0).AppendJSON(nil)
	tie := snapOf(len(db) - len(base))
	if sb, _ := tie.AppendJSON(nil); len(sb) != len(db) {
		t.Fatalf("test setup: snapshot %d bytes, delta %d", len(sb), len(db))
	}
	ev, err := Smaller(delta, func() *agui.StateSnapshot { return tie }, 0)
	if err != nil || ev.Type() != agui.TypeStateSnapshot {
		t.Fatalf("tie: got %v, %v; want the snapshot", ev, err)
	}
	built := false
	ev, err = Smaller(delta, func() *agui.StateSnapshot { built = true; return tie }, len(db)+1)
	if err != nil || ev.Type() != agui.TypeStateDelta || built {
		t.Fatalf("under the floor: got %v, %v, snapshot built %v; want the delta, unbuilt", ev, err, built)
	}
}
