package jsonpatch

import (
	"encoding/json"

	"github.com/agui-go/agui"
	"github.com/wI2L/jsondiff"
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
// STATE_SNAPSHOT encodes smaller. Both values are in decoded-JSON form.
func Update(prev any, hasPrev bool, next any) (agui.Event, error) {
	snap, err := json.Marshal(next)
	if err != nil {
		return nil, err
	}
	if !hasPrev {
		return &agui.StateSnapshot{Snapshot: json.RawMessage(snap)}, nil
	}
	ops, err := Diff(prev, next)
	if err != nil || len(ops) == 0 {
		return nil, err
	}
	delta, err := json.Marshal(ops)
	if err != nil {
		return nil, err
	}
	// The two events differ only in their type, key and payload: compare
	// what they would weigh on the wire.
	const envelope = len(`"STATE_SNAPSHOT""snapshot"`) - len(`"STATE_DELTA""delta"`)
	if len(delta) >= len(snap)+envelope {
		return &agui.StateSnapshot{Snapshot: json.RawMessage(snap)}, nil
	}
	return &agui.StateDelta{Delta: ops}, nil
}
