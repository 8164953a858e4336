package jsonpatch

import (
	"encoding/json"

	"github.com/wI2L/jsondiff"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/internal/jsonx"
)

// Diff returns the RFC 6902 operations taking prev to next, both in
// decoded-JSON form. The operations' values are copies, so whoever edits
// the event downstream cannot reach prev or next.
func Diff(prev, next any) ([]agui.PatchOp, error) {
	patch, err := jsondiff.CompareWithoutMarshal(prev, next)
	if err != nil {
		return nil, err
	}
	ops := make([]agui.PatchOp, len(patch))
	for i, op := range patch {
		ops[i] = agui.PatchOp{Op: op.Type, Path: op.Path, From: op.From, Value: DeepCopy(op.Value)}
	}
	return ops, nil
}

// Update returns the event that takes a client holding prev to next: a
// STATE_SNAPSHOT when the client holds nothing yet (hasPrev false), nil when
// prev and next are equal, and otherwise whichever of STATE_DELTA and
// STATE_SNAPSHOT encodes smaller (see [Smaller]). Both values are in
// decoded-JSON form.
func Update(prev any, hasPrev bool, next any) (agui.Event, error) {
	// Encoded as the wire encodes it (no HTML escaping), so the snapshot's
	// length is the one the client would download.
	snap, err := jsonx.AppendValue(nil, next)
	if err != nil {
		return nil, err
	}
	snapshot := func() *agui.StateSnapshot { return &agui.StateSnapshot{Snapshot: json.RawMessage(snap)} }
	if !hasPrev {
		return snapshot(), nil
	}
	ops, err := Diff(prev, next)
	if err != nil || len(ops) == 0 {
		return nil, err
	}
	// The snapshot's event holds snap whole, so it is at least that long.
	return Smaller(&agui.StateDelta{Delta: ops}, snapshot, len(snap))
}

// Smaller is the module's one "smaller of snapshot and delta" rule, used
// by [Update] and [UpdateFromOps] alike: delta when its encoded event is
// shorter than the snapshot's, otherwise the snapshot (a tie goes to the
// snapshot, which a client applies without holding anything). The measure
// is the bytes of each event's JSON, what the client downloads.
//
// snapFloor is a number of bytes the snapshot's event is known to reach
// (0 when nothing is known): a delta shorter than that wins without the
// snapshot being built or encoded, which spares a large state one
// encoding of the whole document per write.
func Smaller(delta *agui.StateDelta, snapshot func() *agui.StateSnapshot, snapFloor int) (agui.Event, error) {
	db, err := delta.AppendJSON(nil)
	if err != nil {
		return nil, err
	}
	if len(db) < snapFloor {
		return delta, nil
	}
	snap := snapshot()
	sb, err := snap.AppendJSON(nil)
	if err != nil {
		return nil, err
	}
	if len(db) < len(sb) {
		return delta, nil
	}
	return snap, nil
}
