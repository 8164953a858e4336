package core

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/agui-go/agui"
)

// greeter is an Agent implemented by a struct: its fields are
// configuration shared by every run; per-run state lives in the
// RunContext.
type greeter struct{ greeting string }

func (g greeter) Run(ctx context.Context, rc *RunContext[tally]) (agui.Outcome, error) {
	if err := rc.UpdateState(func(t *tally) { t.Runs++ }); err != nil {
		return agui.Outcome{}, err
	}
	return agui.Success(), rc.Say(g.greeting + " " + rc.Input().RunID)
}

type tally struct {
	Runs int `json:"runs"`
}

// One Agent value serves many runs at the same time, each with its own
// input, state and stream.
func TestAgentServesConcurrentRuns(t *testing.T) {
	var a Agent[tally] = greeter{greeting: "hello"}
	const runs = 20
	var wg sync.WaitGroup
	streams := make([][]agui.Event, runs)
	for i := range runs {
		wg.Go(func() {
			in := agui.NewInput("t", fmt.Sprint("run-", i))
			in.State = map[string]any{"runs": i}
			for ev, err := range Run(context.Background(), a, in) {
				if err != nil {
					t.Error(err)
					return
				}
				streams[i] = append(streams[i], ev)
			}
		})
	}
	wg.Wait()
	for i, evs := range streams {
		equalTypes(t, evs, agui.TypeRunStarted, agui.TypeStateSnapshot, agui.TypeTextMessageStart, agui.TypeTextMessageContent, agui.TypeTextMessageEnd, agui.TypeRunFinished)
		if got, want := evs[0].(*agui.RunStarted).RunID, fmt.Sprint("run-", i); got != want {
			t.Errorf("run %d started as %q", i, got)
		}
		if got := applyState(t, nil, evs[1]); !reflect.DeepEqual(got, map[string]any{"runs": float64(i + 1)}) {
			t.Errorf("run %d: state %v, want runs=%d", i, got, i+1)
		}
		if got, want := evs[3].(*agui.TextMessageContent).Delta, fmt.Sprint("hello run-", i); got != want {
			t.Errorf("run %d said %q, want %q", i, got, want)
		}
	}
}

func TestAgentFuncCallsFunction(t *testing.T) {
	called := false
	f := AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		called = true
		return agui.Cancelled(), nil
	})
	o, err := f.Run(context.Background(), nil)
	if !called || err != nil || o.Type != agui.OutcomeCancelled {
		t.Errorf("Run = %+v, %v; called %v", o, err, called)
	}
}
