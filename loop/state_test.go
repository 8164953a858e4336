package loop

import (
	"context"
	"encoding/json"
	"iter"
	"strings"
	"sync"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

type canvas struct {
	Color string `json:"color"`
	Count int    `json:"count"`
	Draft string `json:"draft,omitempty"`
}

type paintArgs struct {
	Color string `json:"color"`
}

// paintAgent is a Typed[canvas] agent whose paint tool sets the colour
// and counts; it records each request's instructions.
func paintAgent(t *testing.T, store Store, opts ...Option) (*Typed[canvas], func() []string) {
	t.Helper()
	paint, err := NewTool("paint", "paints", func(ctx context.Context, in paintArgs) (string, error) {
		before, ok := State[canvas](ctx)
		if !ok {
			t.Error("no state in a tool's context")
		}
		err := UpdateState(ctx, func(s *canvas) { s.Color, s.Count, s.Draft = in.Color, s.Count+1, "" })
		return "was " + before.Color, err
	})
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu   sync.Mutex
		seen []string
	)
	p := ProviderFunc(func(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
		mu.Lock()
		seen = append(seen, req.Instructions)
		mu.Unlock()
		return Script(Turn{Calls: []ScriptedCall{{ID: "p1", Name: "paint", Args: `{"color":"blue"}`}}}, Turn{Text: "painted"}).Stream(ctx, req)
	})
	a, err := NewTyped[canvas](p, append([]Option{WithTools(paint), WithInstructions("be nice"), WithCheckpoints(store)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	a.a.cfg.store = checkedStore{Store: a.a.cfg.store, t: t}
	return a, func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), seen...) }
}

func runTyped(t *testing.T, a core.Agent[canvas], in *agui.RunAgentInput) []agui.Event {
	t.Helper()
	var evs []agui.Event
	for ev, err := range core.Run(t.Context(), a, in) {
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
	if fin, ok := evs[len(evs)-1].(*agui.RunFinished); !ok || fin.Outcome.Type != agui.OutcomeSuccess {
		t.Fatalf("end %v", types(evs))
	}
	return evs
}

// Tools read and update the state; the change goes out as a delta
// against the client's document (keys S does not model kept); the model
// sees the state and the context; the checkpoint keeps the state, and a
// run without client state starts from it with a snapshot.
func TestTypedState(t *testing.T) {
	store := NewMemoryStore()
	a, seen := paintAgent(t, store)
	in := agui.NewInput("t1", "r1")
	in.Messages = []agui.Message{UserText("paint")}
	in.State = json.RawMessage(`{"color":"red","count":1,"extra":{"keep":"a value long enough that a snapshot costs more than a delta"}}`)
	in.Context = []agui.ContextItem{{Description: "page", Value: "settings"}}
	evs := runTyped(t, a, in)
	var deltas []*agui.StateDelta
	for _, ev := range evs {
		switch e := ev.(type) {
		case *agui.StateDelta:
			deltas = append(deltas, e)
		case *agui.StateSnapshot:
			t.Fatalf("snapshot %s where a delta is smaller", e.Snapshot)
		}
	}
	if len(deltas) != 1 || len(deltas[0].Delta) != 2 {
		t.Fatalf("deltas %+v", deltas)
	}
	got := seen()
	if len(got) != 2 || !strings.HasPrefix(got[0], "be nice\n\n") || !strings.Contains(got[0], `"color":"red"`) ||
		!strings.Contains(got[1], `"color":"blue"`) || !strings.Contains(got[0], "- page: settings") {
		t.Fatalf("instructions %q", got)
	}
	cp, _, err := store.Load(t.Context(), "t1")
	if err != nil {
		t.Fatal(err)
	}
	if string(cp.State) != `{"color":"blue","count":2}` {
		t.Fatalf("saved state %s", cp.State)
	}
	if r := results(cp.Messages)["p1"]; r != "was red" {
		t.Fatalf("result %q", r)
	}

	// A reloaded client without state: the saved state comes back.
	in = agui.NewInput("t1", "r2")
	in.Messages = []agui.Message{UserText("again")}
	evs = runTyped(t, a, in)
	snap, ok := evs[1].(*agui.StateSnapshot)
	if b, _ := json.Marshal(snap.Snapshot); !ok || string(b) != `{"color":"blue","count":2}` {
		t.Fatalf("events %v", types(evs))
	}
}

// A predicted field reaches the state while the arguments stream, before
// the call's TOOL_CALL_START.
func TestPredictState(t *testing.T) {
	a, _ := paintAgent(t, NewMemoryStore(), WithPredictState("paint", map[string]string{"color": "draft"}))
	in := agui.NewInput("t1", "r1")
	in.Messages = []agui.Message{UserText("paint")}
	in.State = json.RawMessage(`{"color":"red","count":0}`)
	evs := runTyped(t, a, in)
	predicted := false
	for _, ev := range evs {
		switch e := ev.(type) {
		case *agui.StateDelta:
			for _, op := range e.Delta {
				if op.Path == "/draft" && op.Value == "blue" {
					predicted = true
				}
			}
		case *agui.ToolCallStart:
			if !predicted {
				t.Fatalf("no predicted draft before the call: %v", types(evs))
			}
		}
	}
	if !predicted {
		t.Fatal("no prediction")
	}
}

func TestStateOutsideATool(t *testing.T) {
	if _, ok := State[canvas](context.Background()); ok {
		t.Fatal("state outside a tool")
	}
	if err := UpdateState(context.Background(), func(*canvas) {}); err != ErrNotInTool {
		t.Fatal(err)
	}
	if _, err := NewTyped[canvas](nil); err == nil {
		t.Fatal("nil provider accepted")
	}
	if err := WithPredictState("", nil)(&config{}); err == nil {
		t.Fatal("empty PredictState accepted")
	}
}

// Typed over core.NoState is the untyped loop: no state in the prompt.
func TestTypedNoState(t *testing.T) {
	var got string
	p := ProviderFunc(func(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
		got = req.Instructions
		return Script(Turn{Text: "ok"}).Stream(ctx, req)
	})
	a, err := NewTyped[core.NoState](p, WithInstructions("plain"))
	if err != nil {
		t.Fatal(err)
	}
	in := agui.NewInput("t1", "r1")
	in.Messages = []agui.Message{UserText("hi")}
	for _, err := range core.Run(t.Context(), core.Agent[core.NoState](a), in) {
		if err != nil {
			t.Fatal(err)
		}
	}
	if got != "plain" {
		t.Fatalf("instructions %q", got)
	}
}
