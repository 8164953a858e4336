package transformers

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/internal/jsonpatch"
)

// TestCompositionOrder shows that a chain's order is its meaning: a filter
// before ToolResultToState keeps hidden results out of the state; after
// it, the state still gets them while the call stays hidden.
func TestCompositionOrder(t *testing.T) {
	toState := mustToState(t, StateMapping{Tool: "search", Path: "/results"})
	deny := DenyToolCalls("search")
	events := stream(evs(started()), call("tc1", "search", `{}`, `[1]`), evs(finished()))

	filterFirst := runChain(t, withState(`{}`), events, deny, toState)
	sameList(t, describeList(filterFirst), []string{"RUN_STARTED", "RUN_FINISHED success"})

	stateFirst := runChain(t, withState(`{}`), events, toState, deny)
	sameList(t, describeList(stateFirst), []string{"RUN_STARTED", "STATE_SNAPSHOT", "RUN_FINISHED success"})
	noLeak(t, stateFirst, "tc1")
	if got := clientState(t, withState(`{}`), stateFirst, 0); !reflect.DeepEqual(got, doc(t, `{"results":[1]}`)) {
		t.Errorf("client state = %v", got)
	}
}

// TestCompositionAll chains every built-in over a delegating run.
func TestCompositionAll(t *testing.T) {
	sink := &recordingSink{}
	out := runChain(t, input(), delegation(),
		DenyToolCalls("delegate"),
		mustToState(t, StateMapping{Tool: "estimate", Path: "/estimate"}),
		SubagentVisibility(VisibilityHidden),
		Metrics(sink))
	sameList(t, describeList(out), []string{
		"RUN_STARTED", "STATE_SNAPSHOT", "STATE_SNAPSHOT", "STATE_DELTA",
		"TEXT_MESSAGE_START m-final", "TEXT_MESSAGE_CONTENT m-final", "TEXT_MESSAGE_END m-final",
		"MESSAGES_SNAPSHOT", "RUN_FINISHED success",
	})
	noLeak(t, out, "tc-d")
	noLeak(t, out, "sub-1")
	if len(sink.ended) != 1 || sink.ended[0].Events != len(out) {
		t.Errorf("metrics saw %+v for %d events", sink.ended, len(out))
	}
}

// TestRunsShareNoState runs many runs at once through the same
// NewTransformers (run with -race): each run's output depends on its own
// input only.
func TestRunsShareNoState(t *testing.T) {
	factories := []core.TransformerFactory{
		DenyToolCalls("secret"),
		mustToState(t, StateMapping{Tool: "search", Path: "/results", Merge: func(cur, res any) (any, error) {
			list, _ := cur.([]any)
			return append(list, res), nil
		}}),
		SubagentVisibility(VisibilityHidden),
		SubagentVisibility(VisibilityInline),
		Metrics(&recordingSink{}),
	}
	const runs = 16
	var wg sync.WaitGroup
	errs := make([]error, runs)
	for i := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in := withState(fmt.Sprintf(`{"results":[%d]}`, i))
			events := stream(evs(started()),
				call(fmt.Sprintf("secret-%d", i), "secret", `{}`, "x"),
				call("tc-a", "search", `{}`, fmt.Sprint(i)),
				call("tc-b", "search", `{}`, fmt.Sprint(i)),
				evs(finished()))
			out, err := pass(in, events, factories...)
			if err != nil {
				errs[i] = err
				return
			}
			got, err := replay(in, out)
			if err != nil {
				errs[i] = err
				return
			}
			if want := []any{float64(i), float64(i), float64(i)}; !reflect.DeepEqual(got, map[string]any{"results": want}) {
				errs[i] = fmt.Errorf("run %d: state %v, want results %v", i, got, want)
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
}

// replay is clientState for goroutines: it reports instead of failing.
func replay(in *agui.RunAgentInput, out []agui.Event) (any, error) {
	state, err := jsonpatch.Normalize(in.State)
	if err != nil {
		return nil, err
	}
	for _, ev := range out {
		switch e := ev.(type) {
		case *agui.StateSnapshot:
			state, err = jsonpatch.Normalize(e.Snapshot)
		case *agui.StateDelta:
			state, err = jsonpatch.Apply(state, e.Delta)
		}
		if err != nil {
			return nil, err
		}
	}
	return state, nil
}

// TestTransformerErrorEndsRun checks, through core.Run, that a failing
// built-in ends the run with RUN_ERROR and the stable TRANSFORM_ERROR code.
func TestTransformerErrorEndsRun(t *testing.T) {
	agent := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		tc, err := rc.ToolCall("search")
		if err != nil {
			return agui.Outcome{}, err
		}
		if err := tc.ResultText(`[1]`); err != nil {
			return agui.Outcome{}, err
		}
		return agui.Success(), nil
	})
	toState := mustToState(t, StateMapping{Tool: "search", Path: "/a/b"})
	in := withState(`{"a":"not an object"}`)
	var out []agui.Event
	for ev, err := range core.Run(t.Context(), agent, in, core.WithTransformers(toState)) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ev)
	}
	last, ok := out[len(out)-1].(*agui.RunError)
	if !ok || last.Code != string(agui.CodeTransform) {
		t.Fatalf("run ended with %s, want RUN_ERROR %s", describe(out[len(out)-1]), agui.CodeTransform)
	}
	if !strings.Contains(last.Message, `tool "search"`) {
		t.Errorf("RUN_ERROR message = %q, want it to name the tool", last.Message)
	}
}
