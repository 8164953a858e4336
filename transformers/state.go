package transformers

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/internal/jsonpatch"
)

// StateMapping routes one tool's results into the shared state. It is a
// plain value, read and never modified by [ToolResultToState], so one
// mapping may serve many routes and runs at once (Merge must then be safe
// for concurrent use, as its doc says).
type StateMapping struct {
	// Tool is the tool name whose TOOL_CALL_RESULTs are written.
	Tool string
	// Path is the RFC 6901 JSON Pointer the result is written at, such as
	// "/search/results"; "" is the whole state. Missing objects on the way
	// are created.
	Path string
	// Merge, if set, computes the value written from the value at Path
	// (nil when there is none) and the parsed result. Both arguments are
	// decoded JSON (nil, bool, float64, string, []any, map[string]any) and
	// are Merge's own to modify; its return value must marshal to JSON.
	// nil writes the result as it is. Merge must be safe for concurrent
	// use: runs call it at the same time. An error from it ends the run
	// with TRANSFORM_ERROR.
	Merge func(current, result any) (any, error)
}

// ToolResultToState returns a transformer that writes tool results into the
// state the client holds. On a TOOL_CALL_RESULT of a mapped tool (the tool
// is known from the call's TOOL_CALL_START or first TOOL_CALL_CHUNK) it
// passes the result on, parses its content as JSON (text that is not JSON
// is written as a string), writes it at the mapping's path, and emits the
// smaller, in encoded bytes, of a STATE_DELTA and a STATE_SNAPSHOT. A tool
// with several mappings has them applied in order, in one update. The
// state event carries the result's subagentRunId, as provenance only.
//
// To diff against what the client holds, it follows the state as the
// client does: the run input's state (or RUN_STARTED's input.state) as the
// baseline, then every STATE_SNAPSHOT and STATE_DELTA flowing past. A delta
// that does not apply leaves the state unchanged, as on the client.
//
// The agent does not see these writes, so its next STATE_SNAPSHOT would
// erase them: the transformer puts each value it wrote back into every
// later snapshot, at its path (a path ending in "-" appends and the root
// replaces the state, so those two are not put back). A mapped path thus
// belongs to the tool: map results to a path the agent's state type does
// not model, whose agent deltas then never touch it.
//
// Each run gets its own instance, holding that run's copy of the state;
// the returned NewTransformer is safe for concurrent use. It fails when a
// mapping has no tool name or a malformed path.
func ToolResultToState(mappings ...StateMapping) (core.TransformerFactory, error) {
	byTool := map[string][]stateRoute{}
	for _, m := range mappings {
		if m.Tool == "" {
			return nil, errors.New("transformers: a StateMapping needs a tool name")
		}
		toks, err := jsonpatch.ParsePointer(m.Path)
		if err != nil {
			return nil, fmt.Errorf("transformers: tool %q: %w", m.Tool, err)
		}
		byTool[m.Tool] = append(byTool[m.Tool], stateRoute{path: toks, merge: m.Merge})
	}
	return func(in *agui.RunAgentInput) core.Transformer {
		t := &resultToState{routes: byTool, tools: map[string]string{}}
		if in != nil {
			t.baseline(in.State)
		}
		return t
	}, nil
}

// smallState is the JSON size under which a write diffs the whole state
// (cheap at that size, and it finds the finest patch) instead of deriving
// the patch from the written paths.
const smallState = 64 << 10

// stateRoute is one validated StateMapping.
type stateRoute struct {
	path  []string
	merge func(current, result any) (any, error)
}

// resultToState is ToolResultToState's per-run state. Like every
// Transformer it is used by one goroutine at a time.
type resultToState struct {
	routes map[string][]stateRoute
	// tools maps the ids of calls to mapped tools to their tool name.
	tools map[string]string
	// state is the state the client holds, in decoded-JSON form; unknown
	// when the client was given a state that would not encode.
	state   any
	unknown bool
	// size estimates the JSON size of state (see smallerUpdate).
	size int
	// written holds what this run wrote at each path, oldest first, to put
	// back into later snapshots (see keepWritten).
	written []writtenValue
}

// writtenValue is a value written at a path.
type writtenValue struct {
	path  []string
	value any
}

// baseline sets the state the client holds to v.
func (t *resultToState) baseline(v any) {
	if s, n, ok := jsonpatch.DecodedCopy(v, 0); ok {
		t.state, t.size, t.unknown = s, n, false
		return
	}
	s, n, err := jsonpatch.NormalizeSized(v)
	t.state, t.size, t.unknown = s, n, err != nil
}

func (t *resultToState) Transform(ev agui.Event, emit func(agui.Event) error) error {
	switch e := ev.(type) {
	case *agui.RunStarted:
		if e.Input != nil && e.Input.State != nil {
			t.baseline(e.Input.State)
		}
	case *agui.StateSnapshot:
		ev = t.keepWritten(e)
	case *agui.StateDelta:
		if s, err := jsonpatch.Apply(t.state, e.Delta); err == nil {
			t.state = s
		}
	case *agui.ToolCallStart:
		t.note(e.ToolCallID, e.ToolCallName)
	case *agui.ToolCallChunk:
		t.note(e.ToolCallID, e.ToolCallName)
	case *agui.ToolCallResult:
		if err := emit(e); err != nil {
			return err
		}
		return t.write(e, emit)
	}
	return emit(ev)
}

func (*resultToState) Finish(func(agui.Event) error) error { return nil }

// note notes the tool name of a call when the tool is mapped.
func (t *resultToState) note(id, name string) {
	if id == "" || name == "" {
		return
	}
	if _, ok := t.routes[name]; ok {
		t.tools[id] = name
	} else {
		delete(t.tools, id)
	}
}

// write applies a mapped tool's result to the state and emits the update.
func (t *resultToState) write(res *agui.ToolCallResult, emit func(agui.Event) error) error {
	name, ok := t.tools[res.ToolCallID]
	if !ok {
		return nil
	}
	if t.unknown {
		return fmt.Errorf("transformers: the client's state is not JSON; cannot write the result of %q", name)
	}
	// A large state is written in place (it is this run's own copy) and
	// the operations come from the mapped paths, not from a diff of the
	// whole state: a write costs its path and value, not the state's
	// size. A failed write ends the run, so a half-applied update is never
	// used. A small state is diffed whole, which finds the finest patch.
	var prev any
	small := t.size < smallState
	if small {
		prev = jsonpatch.DeepCopy(t.state)
	}
	next := t.state
	var ops []agui.PatchOp
	for _, r := range t.routes[name] {
		v, err := r.value(next, res.Content)
		if err != nil {
			return fmt.Errorf("transformers: tool %q: %w", name, err)
		}
		rops := jsonpatch.PathOps(next, r.path, v)
		if next, err = jsonpatch.SetPathInPlace(next, r.path, v); err != nil {
			return fmt.Errorf("transformers: tool %q: writing the result: %w", name, err)
		}
		ops = append(ops, rops...)
		t.remember(r.path, jsonpatch.DeepCopy(v))
	}
	var ev agui.Event
	var err error
	switch {
	case small:
		ev, err = stateUpdate(prev, next, res.SubagentRunID)
	case len(ops) > 0:
		ev, err = jsonpatch.UpdateFromOps(ops, next, t.size)
		if a, ok := ev.(agui.Attributed); ok {
			a.SetSubagent(res.SubagentRunID)
		}
	}
	if err != nil {
		return fmt.Errorf("transformers: tool %q: %w", name, err)
	}
	t.state = next
	switch e := ev.(type) {
	case nil:
		return nil
	case *agui.StateDelta:
		t.size += len(e.Delta) * 16 // a rough account of the growth
	}
	return emit(ev)
}

// remember records v as written at path, to be kept in later snapshots.
// The whole state and appends ("-") are not kept: putting them back would
// discard the snapshot or append again.
func (t *resultToState) remember(path []string, v any) {
	if len(path) == 0 || path[len(path)-1] == "-" {
		return
	}
	key := strings.Join(path, "/")
	t.written = slices.DeleteFunc(t.written, func(w writtenValue) bool { return strings.Join(w.path, "/") == key })
	t.written = append(t.written, writtenValue{path: path, value: v})
}

// keepWritten follows a STATE_SNAPSHOT and puts back into it the values
// this run wrote: the agent's own state does not know them, so its next
// snapshot would otherwise erase them from the client. A value that can no
// longer be written (the snapshot put a string on its path) is dropped.
func (t *resultToState) keepWritten(e *agui.StateSnapshot) agui.Event {
	t.baseline(e.Snapshot)
	if t.unknown || len(t.written) == 0 {
		return e
	}
	snap := t.state
	kept := t.written[:0]
	for _, w := range t.written {
		next, err := jsonpatch.SetPath(snap, w.path, w.value)
		if err != nil {
			continue
		}
		snap = next
		kept = append(kept, w)
	}
	t.written = kept
	if reflect.DeepEqual(snap, t.state) {
		return e
	}
	t.state = snap
	cp := *e
	cp.Snapshot = jsonpatch.DeepCopy(snap)
	return &cp
}

// value computes what r writes for content, given the current state.
func (r stateRoute) value(state any, content agui.Content) (any, error) {
	text := content.String()
	var result any
	if err := json.Unmarshal([]byte(text), &result); err != nil {
		result = text
	}
	if r.merge == nil {
		return result, nil
	}
	current, err := jsonpatch.Lookup(state, r.path)
	if err != nil {
		current = nil
	}
	merged, err := r.merge(jsonpatch.DeepCopy(current), result)
	if err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	if merged, err = jsonpatch.Normalize(merged); err != nil {
		return nil, fmt.Errorf("merge result: %w", err)
	}
	return merged, nil
}

// stateUpdate returns the smaller of a STATE_DELTA and a STATE_SNAPSHOT
// taking the client from prev to next, or nil when they are equal.
func stateUpdate(prev, next any, subagent string) (agui.Event, error) {
	ev, err := jsonpatch.Update(prev, true, next)
	if a, ok := ev.(agui.Attributed); ok {
		a.SetSubagent(subagent)
	}
	return ev, err
}
