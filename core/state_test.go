package core

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/internal/jsonpatch"
)

// board is a typed state with nested values, a list and an omitempty
// field.
type board struct {
	Title string            `json:"title"`
	Count int               `json:"count"`
	Tags  []string          `json:"tags"`
	Meta  map[string]string `json:"meta,omitempty"`
}

// stateRun runs updates against an input state and returns the state
// events, failing if the run does not finish.
func stateRun(t *testing.T, input any, updates ...func(*board)) []agui.Event {
	t.Helper()
	in := agui.NewInput("t", "r")
	in.State = input
	evs := collect(t, Run[board](context.Background(), AgentFunc[board](func(ctx context.Context, rc *RunContext[board]) (agui.Outcome, error) {
		for _, u := range updates {
			if err := rc.UpdateState(u); err != nil {
				return agui.Outcome{}, err
			}
		}
		return agui.Success(), nil
	}), in))
	last[*agui.RunFinished](t, evs)
	return evs[1 : len(evs)-1]
}

// applyState applies a state event to the client's document the way a
// client does: a snapshot replaces it, a delta patches it.
func applyState(t *testing.T, doc any, ev agui.Event) any {
	t.Helper()
	switch ev := ev.(type) {
	case *agui.StateSnapshot:
		return roundTrip(t, ev.Snapshot)
	case *agui.StateDelta:
		out, err := jsonpatch.Apply(roundTrip(t, doc), ev.Delta)
		if err != nil {
			t.Fatalf("delta %+v does not apply to %v: %v", ev.Delta, doc, err)
		}
		return out
	}
	t.Fatalf("not a state event: %s", ev.Type())
	return nil
}

func roundTrip(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestStateFirstPublishIsSnapshotWithoutInputState(t *testing.T) {
	evs := stateRun(t, nil, func(b *board) { b.Title = "x" })
	equalTypes(t, evs, agui.TypeStateSnapshot)
	want := map[string]any{"title": "x", "count": 0.0, "tags": nil}
	if got := applyState(t, nil, evs[0]); !reflect.DeepEqual(got, want) {
		t.Errorf("snapshot = %v, want %v", got, want)
	}
}

func TestStateUnchangedPublishesNothing(t *testing.T) {
	evs := stateRun(t, json.RawMessage(`{"title":"x","count":1,"tags":["a"]}`),
		func(b *board) {},
		func(b *board) { b.Count = 1 })
	if len(evs) != 0 {
		t.Errorf("published %v for no change", types(evs))
	}
}

// Every update is published as a snapshot or a delta, whichever is
// smaller, and applying them in order on the client's state yields the
// agent's state, keeping keys the agent's type does not model.
func TestStateDeltasApply(t *testing.T) {
	client := map[string]any{
		"title": "draft", "count": 1.0, "tags": []any{"a", "b"},
		"clientOnly": map[string]any{"cursor": 7.0},
	}
	updates := []func(*board){
		func(b *board) { b.Count++ },
		func(b *board) { b.Tags = append(b.Tags, "c") },
		func(b *board) { b.Meta = map[string]string{"owner": "ann"} },
		func(b *board) { b.Tags = b.Tags[1:]; b.Meta["slash/key~"] = "v" },
		func(b *board) { b.Meta = nil },
		func(b *board) { b.Title = strings.Repeat("long title ", 20) },
		func(b *board) { *b = board{Title: "reset"} },
	}
	input, _ := json.Marshal(client)
	evs := stateRun(t, json.RawMessage(input), updates...)
	if len(evs) != len(updates) {
		t.Fatalf("%d state events for %d updates: %v", len(evs), len(updates), types(evs))
	}
	var doc any = roundTrip(t, client)
	var typed board
	if err := json.Unmarshal(input, &typed); err != nil {
		t.Fatal(err)
	}
	var deltas int
	for i, ev := range evs {
		if ev.Type() == agui.TypeStateDelta {
			deltas++
		}
		doc = applyState(t, doc, ev)
		updates[i](&typed)
		want := roundTrip(t, typed).(map[string]any)
		want["clientOnly"] = map[string]any{"cursor": 7.0}
		if !reflect.DeepEqual(doc, any(want)) {
			t.Fatalf("after update %d (%s):\n got %v\nwant %v", i, ev.Type(), doc, want)
		}
	}
	if deltas == 0 {
		t.Error("no update was published as a delta")
	}
}

// Whichever of the two is smaller goes out.
func TestStateSmallerWins(t *testing.T) {
	big := json.RawMessage(`{"title":"` + strings.Repeat("x", 500) + `","count":0,"tags":[]}`)
	if evs := stateRun(t, big, func(b *board) { b.Count = 1 }); len(evs) != 1 || evs[0].Type() != agui.TypeStateDelta {
		t.Errorf("a one-field change of a large state: %v, want a delta", types(evs))
	}
	small := json.RawMessage(`{"title":"a","count":0,"tags":[]}`)
	if evs := stateRun(t, small, func(b *board) { *b = board{Title: "b", Count: 1, Tags: []string{"c"}} }); len(evs) != 1 || evs[0].Type() != agui.TypeStateSnapshot {
		t.Errorf("replacing a small state: %v, want a snapshot", types(evs))
	}
}

func TestStateInputForms(t *testing.T) {
	for name, input := range map[string]any{
		"raw":   json.RawMessage(`{"title":"x"}`),
		"bytes": []byte(`{"title":"x"}`),
		"value": map[string]any{"title": "x"},
	} {
		r, err := NewRunner[board](AgentFunc[board](func(ctx context.Context, rc *RunContext[board]) (agui.Outcome, error) {
			if rc.State().Title != "x" {
				return agui.Outcome{}, fmt.Errorf("state %+v", rc.State())
			}
			return agui.Success(), nil
		}), &agui.RunAgentInput{ThreadID: "t", RunID: "r", State: input})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		last[*agui.RunFinished](t, collect(t, r.Events(context.Background())))
	}
	for _, null := range []any{json.RawMessage(`null`), json.RawMessage(` `)} {
		evs := stateRun(t, null, func(b *board) { b.Count = 1 })
		equalTypes(t, evs, agui.TypeStateSnapshot)
	}
}

func TestStateInputDoesNotDecode(t *testing.T) {
	in := agui.NewInput("t", "r")
	in.State = json.RawMessage(`["not", "a", "board"]`)
	if _, err := NewRunner[board](noop[board](), in); agui.CodeOf(err) != agui.CodeSerialization {
		t.Errorf("NewRunner = %v, want a SERIALIZATION error", err)
	}
	in.State = json.RawMessage(`{"broken"`)
	if _, err := NewRunner[board](noop[board](), in); agui.CodeOf(err) != agui.CodeSerialization {
		t.Errorf("NewRunner = %v, want a SERIALIZATION error", err)
	}
	// NoState ignores whatever the client holds.
	if _, err := NewRunner[NoState](noop[NoState](), in); err != nil {
		t.Errorf("NoState: %v", err)
	}
}

// unmarshalable fails to encode when it is non-zero.
type unmarshalable int

func (u unmarshalable) MarshalJSON() ([]byte, error) {
	if u != 0 {
		return nil, fmt.Errorf("cannot encode %d", int(u))
	}
	return []byte("0"), nil
}

func TestStateMarshalFailureLeavesStateAlone(t *testing.T) {
	type bad struct {
		N int           `json:"n"`
		U unmarshalable `json:"u"`
	}
	evs := collect(t, Run[bad](context.Background(), AgentFunc[bad](func(ctx context.Context, rc *RunContext[bad]) (agui.Outcome, error) {
		err := rc.UpdateState(func(b *bad) { b.N = 1; b.U = 1 })
		if agui.CodeOf(err) != agui.CodeSerialization {
			return agui.Outcome{}, fmt.Errorf("UpdateState = %v, want SERIALIZATION", err)
		}
		if rc.State().N != 0 {
			return agui.Outcome{}, fmt.Errorf("state changed to %+v", rc.State())
		}
		return agui.Success(), nil
	}), agui.NewInput("t", "r")))
	equalTypes(t, evs, agui.TypeRunStarted, agui.TypeRunFinished)
}

func TestStateNoState(t *testing.T) {
	in := agui.NewInput("t", "r")
	in.State = json.RawMessage(`{"anything":1}`)
	evs := collect(t, Run[NoState](context.Background(), AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		called := false
		if err := rc.UpdateState(func(*NoState) { called = true }); err != nil || !called {
			return agui.Outcome{}, fmt.Errorf("UpdateState: %v, called %v", err, called)
		}
		if err := rc.UpdateState(nil); agui.CodeOf(err) != agui.CodeProtocol {
			return agui.Outcome{}, fmt.Errorf("UpdateState(nil) = %v", err)
		}
		return agui.Success(), nil
	}), in))
	equalTypes(t, evs, agui.TypeRunStarted, agui.TypeRunFinished)
}

func TestMerge3(t *testing.T) {
	obj := func(s string) any {
		var v any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	cases := []struct{ base, before, after, want string }{
		// A key the type does not model stays.
		{`{"a":1,"x":9}`, `{"a":1}`, `{"a":2}`, `{"a":2,"x":9}`},
		// A modelled key the agent did not change keeps the client's value.
		{`{"a":1}`, `{"a":1,"b":0}`, `{"a":2,"b":0}`, `{"a":2}`},
		// A key the typed view dropped goes.
		{`{"a":1,"m":{"k":1}}`, `{"a":1,"m":{"k":1}}`, `{"a":1}`, `{"a":1}`},
		// Nested objects merge.
		{`{"n":{"a":1,"x":9}}`, `{"n":{"a":1}}`, `{"n":{"a":2}}`, `{"n":{"a":2,"x":9}}`},
		// Anything but objects is replaced.
		{`{"l":[1,2,9]}`, `{"l":[1,2]}`, `{"l":[1]}`, `{"l":[1]}`},
		{`[1]`, `{"a":1}`, `{"a":2}`, `{"a":2}`},
	}
	for _, c := range cases {
		if got := merge3(obj(c.base), obj(c.before), obj(c.after)); !reflect.DeepEqual(got, obj(c.want)) {
			t.Errorf("merge3(%s, %s, %s) = %v, want %s", c.base, c.before, c.after, got, c.want)
		}
	}
}
