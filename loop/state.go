package loop

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// stateAccess is a run's shared state as the loop sees it. Its methods
// are safe for concurrent use (tools call them from their goroutines).
type stateAccess interface {
	// snapshot returns the state's JSON, nil when it does not encode.
	snapshot() json.RawMessage
	// restore sets the state to the checkpoint's raw when the client sent
	// none.
	restore(raw json.RawMessage) error
	// mirror sets the top-level field of the state's JSON to value.
	mirror(fields map[string]json.RawMessage) error
}

// Typed is a loop agent over a shared state S: a core.Agent[S]. The
// client's state (RunAgentInput.state) is decoded into S; tools read it
// with [State] and change it with [UpdateState], and each change goes out as
// the smaller of STATE_SNAPSHOT and STATE_DELTA. The model sees the
// current state in its system prompt (see [WithRenderContext]), and the state
// is saved in the thread's checkpoint: a run whose client sends no state
// starts from the saved one.
//
// A Typed is immutable and safe for concurrent use.
type Typed[S any] struct {
	a *Agent
}

var _ core.Agent[struct{}] = (*Typed[struct{}])(nil)

// NewTyped returns a loop agent over state S on provider; the options are
// [New]'s.
func NewTyped[S any](provider Provider, opts ...Option) (*Typed[S], error) {
	a, err := New(provider, opts...)
	if err != nil {
		return nil, err
	}
	return &Typed[S]{a: a}, nil
}

// Loop returns the untyped loop agent behind t, sharing its checkpoints
// (for [ThreadsHandler], or to run it without state).
func (t *Typed[S]) Loop() *Agent { return t.a }

// Run implements [core.Agent], as [Agent.Run] does, with the run's state
// available to tools.
func (t *Typed[S]) Run(ctx context.Context, rc *core.RunContext[S]) (agui.Outcome, error) {
	var zero S
	if _, none := any(zero).(core.NoState); none {
		return hosted(ctx, t.a, rc, nil)
	}
	return hosted(ctx, t.a, rc, &typedState[S]{rc: rc, clientHas: rc.Input().State != nil})
}

// State returns a copy of the run's shared state from a tool's context;
// ok is false outside a tool call of a Typed[S] agent. The copy is
// shallow: change state only through [UpdateState].
func State[S any](ctx context.Context) (s S, ok bool) {
	sc, ok := scopeOf(ctx)
	if !ok {
		return s, false
	}
	ts, ok := sc.st.(*typedState[S])
	if !ok {
		return s, false
	}
	return ts.rc.State(), true
}

// UpdateState applies f to the run's shared state from a tool's context
// and publishes the change (see [core.RunContext.UpdateState]). It returns
// [ErrNotInTool] outside a tool call of a Typed[S] agent.
func UpdateState[S any](ctx context.Context, f func(*S)) error {
	sc, ok := scopeOf(ctx)
	if !ok {
		return ErrNotInTool
	}
	ts, ok := sc.st.(*typedState[S])
	if !ok {
		return ErrNotInTool
	}
	return ts.rc.UpdateState(f)
}

// typedState is the stateAccess of a Typed[S] run.
type typedState[S any] struct {
	rc *core.RunContext[S]
	// clientHas is set when the input carried a state: the client's
	// state then wins over the checkpoint's.
	clientHas bool
}

func (t *typedState[S]) snapshot() json.RawMessage {
	b, err := json.Marshal(t.rc.State())
	if err != nil {
		return nil
	}
	return b
}

func (t *typedState[S]) restore(raw json.RawMessage) error {
	if t.clientHas || raw == nil {
		return nil
	}
	var err error
	uerr := t.rc.UpdateState(func(s *S) {
		var v S
		if err = json.Unmarshal(raw, &v); err == nil {
			*s = v
		}
	})
	return errors.Join(err, uerr)
}

func (t *typedState[S]) mirror(fields map[string]json.RawMessage) error {
	var err error
	uerr := t.rc.UpdateState(func(s *S) {
		cur, e := json.Marshal(*s)
		if e != nil {
			err = e
			return
		}
		obj := map[string]json.RawMessage{}
		if e := json.Unmarshal(cur, &obj); e != nil {
			err = errors.New("loop: predictive state needs a state that is a JSON object")
			return
		}
		for k, v := range fields {
			obj[k] = v
		}
		next, e := json.Marshal(obj)
		if e != nil {
			err = e
			return
		}
		var v S
		if e := json.Unmarshal(next, &v); e != nil {
			err = e
			return
		}
		*s = v
	})
	return errors.Join(err, uerr)
}
