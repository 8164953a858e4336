package core

import (
	"bytes"
	"encoding/json"
	"maps"
	"reflect"
	"sync"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/internal/jsonpatch"
)

// state is the shared state of one run and what the client holds of it.
//
// The baseline is the input's state, which the client already holds. The
// agent works on a typed view (S); each update publishes the change between
// the typed view before and after, merged into the client's document, so
// keys S does not model are never touched and nothing the agent did not
// change is removed.
type state[S any] struct {
	mu    sync.Mutex
	value S
	// typed is the JSON of value as last published or decoded.
	typed []byte
	// doc is the client's state document as last published; hasDoc is
	// false while the client holds none.
	doc    any
	hasDoc bool
	// none is set for NoState, which publishes nothing.
	none bool
}

// init decodes the input's state (json.RawMessage, []byte or any value
// that marshals to JSON; nil or JSON null means absent) into the baseline.
func (st *state[S]) init(input any) error {
	if _, ok := any(st.value).(NoState); ok {
		st.none = true
		return nil
	}
	raw, err := inputStateJSON(input)
	if err != nil {
		return &agui.Error{Code: agui.CodeSerialization, Message: "core: input state is not JSON: " + err.Error(), Err: err}
	}
	if raw != nil {
		if err := json.Unmarshal(raw, &st.value); err != nil {
			return &agui.Error{Code: agui.CodeSerialization, Message: "core: input state does not decode into the agent's state type: " + err.Error(), Err: err}
		}
		if err := json.Unmarshal(raw, &st.doc); err != nil {
			return &agui.Error{Code: agui.CodeSerialization, Message: "core: input state is not JSON: " + err.Error(), Err: err}
		}
		st.hasDoc = true
	}
	st.typed, err = json.Marshal(st.value)
	if err != nil {
		return &agui.Error{Code: agui.CodeSerialization, Message: "core: state does not encode as JSON: " + err.Error(), Err: err}
	}
	return nil
}

func inputStateJSON(v any) ([]byte, error) {
	var raw []byte
	switch v := v.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		raw = v
	case []byte:
		raw = v
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		raw = b
	}
	if t := bytes.TrimSpace(raw); len(t) == 0 || string(t) == "null" {
		return nil, nil
	}
	return raw, nil
}

// State returns a copy of the current state. The copy is shallow: maps and
// slices inside S are shared, so change state only through UpdateState.
func (rc *RunContext[S]) State() S {
	rc.state.mu.Lock()
	defer rc.state.mu.Unlock()
	return rc.state.value
}

// UpdateState applies f to a copy of the state and publishes the change:
// a STATE_DELTA (RFC 6902 operations against what the client holds) or a
// STATE_SNAPSHOT, whichever is smaller in bytes, and nothing when the JSON
// of the state did not change. The first publish of a run whose input
// carried no state is always a snapshot. When publishing fails (the state
// does not marshal, the run is cancelled) the error is returned and the
// state keeps its previous value; the copy f works on is shallow, though,
// so changes f made inside maps, slices or pointers of S are not undone.
// What the client was sent is tracked separately, so the next publish
// still diffs against what the client holds.
//
// Updates are serialised: f runs under the state's lock, so it must not
// call back into the RunContext's state methods.
func (rc *RunContext[S]) UpdateState(f func(*S)) error {
	if f == nil {
		return agui.NewError(agui.CodeProtocol, "core: UpdateState with a nil function")
	}
	st := &rc.state
	st.mu.Lock()
	defer st.mu.Unlock()
	next := st.value
	f(&next)
	if st.none {
		return nil
	}
	typed, err := json.Marshal(next)
	if err != nil {
		return &agui.Error{Code: agui.CodeSerialization, Message: "core: state does not encode as JSON: " + err.Error(), Err: err}
	}
	if bytes.Equal(typed, st.typed) {
		st.value = next
		return nil
	}
	var before, after any
	if err := json.Unmarshal(st.typed, &before); err != nil {
		return &agui.Error{Code: agui.CodeSerialization, Message: "core: " + err.Error(), Err: err}
	}
	if err := json.Unmarshal(typed, &after); err != nil {
		return &agui.Error{Code: agui.CodeSerialization, Message: "core: " + err.Error(), Err: err}
	}
	doc := after
	if st.hasDoc {
		doc = merge3(st.doc, before, after)
	}
	ev, err := stateEvent(st.doc, st.hasDoc, doc)
	if err != nil {
		return err
	}
	if ev != nil {
		if err := rc.send(ev); err != nil {
			return err
		}
	}
	st.value, st.typed, st.doc, st.hasDoc = next, typed, doc, true
	return nil
}

// stateEvent is the event taking a client holding old (hasOld false: nothing
// yet) to doc, the smaller of snapshot and delta, or nil for no change.
func stateEvent(old any, hasOld bool, doc any) (agui.Event, error) {
	ev, err := jsonpatch.Update(old, hasOld, doc)
	if err != nil {
		return nil, &agui.Error{Code: agui.CodeSerialization, Message: "core: " + err.Error(), Err: err}
	}
	return ev, nil
}

// merge3 applies the agent's change from before to after (both typed
// views) onto base (the client's document): objects merge key by key, a
// key the typed view dropped is removed, and a value the agent did not
// change keeps whatever the client holds there, including keys S does not
// model.
func merge3(base, before, after any) any {
	bm, ok1 := base.(map[string]any)
	pm, ok2 := before.(map[string]any)
	am, ok3 := after.(map[string]any)
	if !ok1 || !ok2 || !ok3 {
		if reflect.DeepEqual(before, after) {
			return base
		}
		return after
	}
	out := maps.Clone(bm)
	for k := range pm {
		if _, ok := am[k]; !ok {
			delete(out, k)
		}
	}
	for k, av := range am {
		pv, had := pm[k]
		bv, inBase := bm[k]
		switch {
		case had && reflect.DeepEqual(pv, av):
			// Unchanged by the agent: the client's value stands.
		case had && inBase:
			out[k] = merge3(bv, pv, av)
		default:
			out[k] = av
		}
	}
	return out
}
