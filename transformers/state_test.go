package transformers

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/internal/jsonpatch"
)

// clientState replays out's STATE_* events on the state the client sent,
// as the client does, and returns the state it ends with. A delta that
// does not apply fails t, unless it is one of the first allowBad deltas
// that fail: the client then keeps its state.
func clientState(t *testing.T, in *agui.RunAgentInput, out []agui.Event, allowBad int) any {
	t.Helper()
	state, err := jsonpatch.Normalize(in.State)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range out {
		switch e := ev.(type) {
		case *agui.StateSnapshot:
			if state, err = jsonpatch.Normalize(e.Snapshot); err != nil {
				t.Fatal(err)
			}
		case *agui.StateDelta:
			// Through the wire form, as the client gets it.
			b, err := e.AppendJSON(nil)
			if err != nil {
				t.Fatal(err)
			}
			var wire struct{ Delta []agui.PatchOp }
			if err := json.Unmarshal(b, &wire); err != nil {
				t.Fatal(err)
			}
			next, err := jsonpatch.Apply(state, wire.Delta)
			if err != nil {
				if allowBad == 0 {
					t.Fatalf("the client cannot apply %s: %v", b, err)
				}
				allowBad--
				continue
			}
			state = next
		}
	}
	return state
}

func withState(state string) *agui.RunAgentInput {
	in := input()
	in.State = json.RawMessage(state)
	return in
}

func mustToState(t *testing.T, ms ...StateMapping) core.TransformerFactory {
	t.Helper()
	nt, err := ToolResultToState(ms...)
	if err != nil {
		t.Fatal(err)
	}
	return nt
}

// big is a state large enough that a small change is cheaper as a delta.
const big = `{"notes":"` + "lorem ipsum dolor sit amet, consectetur adipiscing elit " + `","n":1}`

func TestToolResultToState(t *testing.T) {
	search := StateMapping{Tool: "search", Path: "/search/results"}
	appendAll := StateMapping{Tool: "search", Path: "/log", Merge: func(cur, res any) (any, error) {
		list, _ := cur.([]any)
		return append(list, res), nil
	}}
	tests := []struct {
		name     string
		mappings []StateMapping
		in       *agui.RunAgentInput
		events   []agui.Event
		want     []string // event descriptions
		state    string   // the state the client ends with
		badDelta int      // deltas in events that the client cannot apply
	}{
		{
			name:     "a small state gets a snapshot",
			mappings: []StateMapping{search},
			in:       withState(`{}`),
			events:   stream(evs(started()), call("tc1", "search", `{}`, `[1,2]`), evs(finished())),
			want: []string{"RUN_STARTED", "TOOL_CALL_START tc1", "TOOL_CALL_ARGS tc1", "TOOL_CALL_END tc1",
				"TOOL_CALL_RESULT tc1 r-tc1", "STATE_SNAPSHOT", "RUN_FINISHED success"},
			state: `{"search":{"results":[1,2]}}`,
		},
		{
			name:     "a large state gets a delta",
			mappings: []StateMapping{search},
			in:       withState(big),
			events:   stream(evs(started()), call("tc1", "search", `{}`, `[1,2]`), evs(finished())),
			want: []string{"RUN_STARTED", "TOOL_CALL_START tc1", "TOOL_CALL_ARGS tc1", "TOOL_CALL_END tc1",
				"TOOL_CALL_RESULT tc1 r-tc1", "STATE_DELTA", "RUN_FINISHED success"},
			state: `{"notes":"lorem ipsum dolor sit amet, consectetur adipiscing elit ","n":1,"search":{"results":[1,2]}}`,
		},
		{
			name:     "text that is not JSON is written as a string",
			mappings: []StateMapping{{Tool: "search", Path: "/last"}},
			in:       withState(big),
			events:   stream(evs(started()), call("tc1", "search", `{}`, `no results`), evs(finished())),
			want: []string{"RUN_STARTED", "TOOL_CALL_START tc1", "TOOL_CALL_ARGS tc1", "TOOL_CALL_END tc1",
				"TOOL_CALL_RESULT tc1 r-tc1", "STATE_DELTA", "RUN_FINISHED success"},
			state: `{"notes":"lorem ipsum dolor sit amet, consectetur adipiscing elit ","n":1,"last":"no results"}`,
		},
		{
			name:     "it follows the snapshots and deltas flowing past",
			mappings: []StateMapping{search},
			in:       withState(`{"old":true}`),
			events: stream(evs(started(),
				&agui.StateSnapshot{Snapshot: json.RawMessage(big)},
				&agui.StateDelta{Delta: []agui.PatchOp{{Op: "add", Path: "/m", Value: 2}, {Op: "remove", Path: "/n"}}},
				// A delta the client cannot apply leaves its state as it was.
				&agui.StateDelta{Delta: []agui.PatchOp{{Op: "remove", Path: "/nothing"}}}),
				call("tc1", "search", `{}`, `{"hits":3}`), evs(finished())),
			want: []string{"RUN_STARTED", "STATE_SNAPSHOT", "STATE_DELTA", "STATE_DELTA",
				"TOOL_CALL_START tc1", "TOOL_CALL_ARGS tc1", "TOOL_CALL_END tc1",
				"TOOL_CALL_RESULT tc1 r-tc1", "STATE_DELTA", "RUN_FINISHED success"},
			state:    `{"notes":"lorem ipsum dolor sit amet, consectetur adipiscing elit ","m":2,"search":{"results":{"hits":3}}}`,
			badDelta: 1,
		},
		{
			name:     "RUN_STARTED's input state is the baseline",
			mappings: []StateMapping{search},
			in:       withState(`{}`),
			events: stream(evs(&agui.RunStarted{ThreadID: "thread-1", RunID: "run-1", Input: withState(big)}),
				call("tc1", "search", `{}`, `1`), evs(finished())),
			want: []string{"RUN_STARTED", "TOOL_CALL_START tc1", "TOOL_CALL_ARGS tc1", "TOOL_CALL_END tc1",
				"TOOL_CALL_RESULT tc1 r-tc1", "STATE_DELTA", "RUN_FINISHED success"},
		},
		{
			name:     "merge combines results",
			mappings: []StateMapping{appendAll},
			in:       withState(`{"log":["a"]}`),
			events: stream(evs(started()), call("tc1", "search", `{}`, `"b"`), call("tc2", "search", `{}`, `{"c":1}`),
				evs(finished())),
			want: []string{"RUN_STARTED",
				"TOOL_CALL_START tc1", "TOOL_CALL_ARGS tc1", "TOOL_CALL_END tc1", "TOOL_CALL_RESULT tc1 r-tc1", "STATE_SNAPSHOT",
				"TOOL_CALL_START tc2", "TOOL_CALL_ARGS tc2", "TOOL_CALL_END tc2", "TOOL_CALL_RESULT tc2 r-tc2", "STATE_SNAPSHOT",
				"RUN_FINISHED success"},
			state: `{"log":["a","b",{"c":1}]}`,
		},
		{
			name:     "several mappings of one tool make one update",
			mappings: []StateMapping{search, {Tool: "search", Path: "/count", Merge: func(cur, _ any) (any, error) { n, _ := cur.(float64); return n + 1, nil }}},
			in:       withState(`{}`),
			events:   stream(evs(started()), call("tc1", "search", `{}`, `[]`), evs(finished())),
			want: []string{"RUN_STARTED", "TOOL_CALL_START tc1", "TOOL_CALL_ARGS tc1", "TOOL_CALL_END tc1",
				"TOOL_CALL_RESULT tc1 r-tc1", "STATE_SNAPSHOT", "RUN_FINISHED success"},
			state: `{"search":{"results":[]},"count":1}`,
		},
		{
			name:     "other tools and unchanged values emit nothing",
			mappings: []StateMapping{search},
			in:       withState(`{"search":{"results":[1]}}`),
			events:   stream(evs(started()), call("tc1", "other", `{}`, `[2]`), call("tc2", "search", `{}`, `[1]`), evs(finished())),
			want: []string{"RUN_STARTED",
				"TOOL_CALL_START tc1", "TOOL_CALL_ARGS tc1", "TOOL_CALL_END tc1", "TOOL_CALL_RESULT tc1 r-tc1",
				"TOOL_CALL_START tc2", "TOOL_CALL_ARGS tc2", "TOOL_CALL_END tc2", "TOOL_CALL_RESULT tc2 r-tc2",
				"RUN_FINISHED success"},
			state: `{"search":{"results":[1]}}`,
		},
		{
			name:     "the tool is known from a chunk; the update keeps the result's tag",
			mappings: []StateMapping{search},
			in:       withState(`{}`),
			events: evs(started(),
				&agui.ToolCallStart{ToolCallID: "tc0", ToolCallName: "search"},
				&agui.ToolCallEnd{ToolCallID: "tc0"},
				tagged("s1", &agui.ToolCallChunk{ToolCallID: "tc1", ToolCallName: "search", Delta: "{}"}),
				&agui.TextMessageStart{MessageID: "m1"},
				&agui.TextMessageEnd{MessageID: "m1"},
				// tc0 stands in for tc1 in the verifier, which knows no
				// chunk-opened call; the transformer keys on the call id.
				tagged("s1", &agui.ToolCallResult{MessageID: "r1", ToolCallID: "tc0", Content: agui.TextContent("[0]")}),
				finished()),
			want: []string{"RUN_STARTED", "TOOL_CALL_START tc0", "TOOL_CALL_END tc0", "TOOL_CALL_CHUNK tc1 @s1",
				"TEXT_MESSAGE_START m1", "TEXT_MESSAGE_END m1", "TOOL_CALL_RESULT tc0 r1 @s1", "STATE_SNAPSHOT @s1", "RUN_FINISHED success"},
			state: `{"search":{"results":[0]}}`,
		},
		{
			name:     "later snapshots keep what was written",
			mappings: []StateMapping{search},
			in:       withState(`{"search":{"results":"stale"}}`),
			events: stream(evs(started()), call("tc1", "search", `{}`, `[1]`),
				evs(&agui.StateSnapshot{Snapshot: map[string]any{"title": "x", "search": map[string]any{"results": "stale"}}},
					finished())),
			want: []string{"RUN_STARTED", "TOOL_CALL_START tc1", "TOOL_CALL_ARGS tc1", "TOOL_CALL_END tc1",
				"TOOL_CALL_RESULT tc1 r-tc1", "STATE_SNAPSHOT", "STATE_SNAPSHOT", "RUN_FINISHED success"},
			state: `{"title":"x","search":{"results":[1]}}`,
		},
		{
			name:     "a snapshot that blocks the path wins",
			mappings: []StateMapping{search},
			in:       withState(`{}`),
			events: stream(evs(started()), call("tc1", "search", `{}`, `[1]`),
				evs(&agui.StateSnapshot{Snapshot: map[string]any{"search": "off"}},
					&agui.StateSnapshot{Snapshot: map[string]any{}},
					finished())),
			want: []string{"RUN_STARTED", "TOOL_CALL_START tc1", "TOOL_CALL_ARGS tc1", "TOOL_CALL_END tc1",
				"TOOL_CALL_RESULT tc1 r-tc1", "STATE_SNAPSHOT", "STATE_SNAPSHOT", "STATE_SNAPSHOT", "RUN_FINISHED success"},
			state: `{}`,
		},
		{
			name:     "no input state reads as null and is replaced",
			mappings: []StateMapping{search},
			in:       input(),
			events:   stream(evs(started()), call("tc1", "search", `{}`, `true`), evs(finished())),
			want: []string{"RUN_STARTED", "TOOL_CALL_START tc1", "TOOL_CALL_ARGS tc1", "TOOL_CALL_END tc1",
				"TOOL_CALL_RESULT tc1 r-tc1", "STATE_SNAPSHOT", "RUN_FINISHED success"},
			state: `{"search":{"results":true}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := runChain(t, tt.in, tt.events, mustToState(t, tt.mappings...))
			sameList(t, describeList(out), tt.want)
			if tt.state == "" {
				return
			}
			if got, want := clientState(t, tt.in, out, tt.badDelta), doc(t, tt.state); !reflect.DeepEqual(got, want) {
				t.Errorf("client state = %v, want %v", got, want)
			}
		})
	}
}

// TestToolResultToStateSmaller checks the choice against both encodings.
func TestToolResultToStateSmaller(t *testing.T) {
	size := func(e agui.Event) int {
		b, err := e.AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		return len(b)
	}
	for _, state := range []string{`{}`, `null`, big, `{"a":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16]}`} {
		prev := doc(t, state)
		next, err := jsonpatch.SetPath(prev, []string{"a"}, []any{1.0})
		if err != nil {
			t.Fatal(err)
		}
		ops, err := jsonpatch.Diff(prev, next)
		if err != nil {
			t.Fatal(err)
		}
		delta, snap := size(&agui.StateDelta{Delta: ops}), size(&agui.StateSnapshot{Snapshot: next})
		ev, err := stateUpdate(prev, next, "")
		if err != nil {
			t.Fatal(err)
		}
		if got := size(ev); got != min(delta, snap) {
			t.Errorf("state %s: chose %s of %d bytes; delta %d, snapshot %d", state, ev.Type(), got, delta, snap)
		}
	}
}

func TestToolResultToStateErrors(t *testing.T) {
	if _, err := ToolResultToState(StateMapping{Path: "/a"}); err == nil {
		t.Error("a mapping without a tool was accepted")
	}
	if _, err := ToolResultToState(StateMapping{Tool: "t", Path: "a"}); err == nil {
		t.Error("a path without a leading / was accepted")
	}
	boom := errors.New("boom")
	tests := []struct {
		name    string
		mapping StateMapping
		state   string
	}{
		{"merge fails", StateMapping{Tool: "t", Path: "/a", Merge: func(any, any) (any, error) { return nil, boom }}, `{}`},
		{"merge returns non-JSON", StateMapping{Tool: "t", Path: "/a", Merge: func(any, any) (any, error) { return make(chan int), nil }}, `{}`},
		{"the path runs through a string", StateMapping{Tool: "t", Path: "/a/b"}, `{"a":"text"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := withState(tt.state)
			_, err := pass(in, stream(evs(started()), call("tc1", "t", `{}`, `1`), evs(finished())), mustToState(t, tt.mapping))
			if err == nil {
				t.Fatal("the transformer did not fail")
			}
			if !strings.HasPrefix(err.Error(), "transformers: tool \"t\"") {
				t.Errorf("error = %q", err)
			}
		})
	}
}

// TestToolResultToStateThroughRun runs an agent with the transformer and
// checks that the client's state follows both the agent and the tool.
func TestToolResultToStateThroughRun(t *testing.T) {
	type S struct {
		Title string `json:"title"`
	}
	agent := core.AgentFunc[S](func(ctx context.Context, rc *core.RunContext[S]) (agui.Outcome, error) {
		if err := rc.UpdateState(func(s *S) { s.Title = "draft" }); err != nil {
			return agui.Outcome{}, err
		}
		tc, err := rc.ToolCall("search")
		if err != nil {
			return agui.Outcome{}, err
		}
		if err := tc.Args(`{"q":"go"}`); err != nil {
			return agui.Outcome{}, err
		}
		if err := tc.ResultText(`{"hits":["a","b"]}`); err != nil {
			return agui.Outcome{}, err
		}
		if err := rc.UpdateState(func(s *S) { s.Title = "final" }); err != nil {
			return agui.Outcome{}, err
		}
		return agui.Success(), nil
	})
	in := withState(`{"title":"","keep":1}`)
	var out []agui.Event
	for ev, err := range core.Run(t.Context(), agent, in, core.WithTransformers(
		mustToState(t, StateMapping{Tool: "search", Path: "/search"}))) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ev)
	}
	verify(t, out)
	if last := out[len(out)-1]; last.Type() != agui.TypeRunFinished {
		t.Fatalf("run ended with %s", describe(last))
	}
	want := doc(t, `{"title":"final","keep":1,"search":{"hits":["a","b"]}}`)
	if got := clientState(t, in, out, 0); !reflect.DeepEqual(got, want) {
		t.Errorf("client state = %v, want %v\n%s", got, want, describeAll(out))
	}
}
