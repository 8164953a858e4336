package loop

import (
	"context"
	"errors"
	"iter"
	"slices"
	"sync"
	"testing"

	"github.com/agui-go/agui"
)

// swapSet is a ToolSet whose tools the test replaces.
type swapSet struct {
	mu    sync.Mutex
	tools []Tool
}

func (s *swapSet) Tools() []Tool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.tools)
}

func (s *swapSet) set(ts ...Tool) {
	s.mu.Lock()
	s.tools = ts
	s.mu.Unlock()
}

func namedTool(t *testing.T, name, out string) Tool {
	t.Helper()
	tool, err := NewTool(name, "tool "+name, func(ctx context.Context, in struct{}) (string, error) { return out, nil })
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

// Each model turn is offered the set's tools of that moment; a call runs
// the tool its turn was offered, even if the set changed since; a name the
// agent's own tools take is not offered twice.
func TestToolSetsReadEveryTurn(t *testing.T) {
	set := &swapSet{}
	set.set(namedTool(t, "a", "from a"), namedTool(t, "echo", "shadowed"))
	script := Script(
		Turn{Calls: []ScriptedCall{{ID: "c1", Name: "a", Args: `{}`}}},
		Turn{Calls: []ScriptedCall{{ID: "c2", Name: "b", Args: `{}`}, {ID: "c3", Name: "a", Args: `{}`}}},
		Turn{Text: "done"},
	)
	var (
		offered [][]string
		turn    int
	)
	p := ProviderFunc(func(ctx context.Context, req ModelRequest) iter.Seq2[Delta, error] {
		var names []string
		for _, s := range req.Tools {
			names = append(names, s.Name)
		}
		offered = append(offered, names)
		turn++
		if turn == 1 {
			// The set changes while the first turn streams: its call
			// still runs tool a.
			set.set(namedTool(t, "b", "from b"))
		}
		return script.Stream(ctx, req)
	})
	a := mustNew(t, p, WithTools(echoTool(t)), WithToolSets(set))
	res, err := a.Execute(context.Background(), user("go"))
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"echo", "a"}, {"echo", "b"}, {"echo", "b"}}
	if len(offered) != 3 || !slices.Equal(offered[0], want[0]) || !slices.Equal(offered[1], want[1]) || !slices.Equal(offered[2], want[2]) {
		t.Fatalf("offered %v, want %v", offered, want)
	}
	got := results(res.Messages)
	if got["c1"] != "from a" || got["c2"] != "from b" {
		t.Fatalf("results %v", got)
	}
	if k := errorKinds(res.Messages)["c3"]; k != KindNotFound {
		t.Fatalf("c3: kind %q, want not-found (a was no longer offered)", k)
	}
}

func TestToolSetsNil(t *testing.T) {
	if _, err := New(Script(), WithToolSets(nil)); err == nil {
		t.Fatal("nil set accepted")
	}
}

// A frontend tool whose name a tool set takes is TOOL_NAME_CLASH before
// the model is asked: at the run's start, and at a later turn when the
// set's list grew to take the name after the first turn. The client never
// gets the call, so it cannot forge the server tool's result.
func TestFrontendToolClashesWithToolSet(t *testing.T) {
	t.Run("at the start", func(t *testing.T) {
		set := &swapSet{}
		set.set(namedTool(t, "theme", "server theme"))
		p := Script(Turn{Calls: themeCalls("f1")}, Turn{Text: "done"})
		store := NewMemoryStore()
		a := mustNew(t, p, WithToolSets(set), WithCheckpoints(store))
		res, err := a.Execute(t.Context(), Input{ThreadID: "t1", Messages: []agui.Message{UserText("hi")}, Tools: []agui.Tool{themeTool()}})
		if agui.CodeOf(err) != CodeToolNameClash || res.FinishReason != FinishError {
			t.Fatalf("%v %s", err, res.FinishReason)
		}
		if p.Calls() != 0 {
			t.Fatal("the model was asked")
		}
		if _, _, err := store.Load(t.Context(), "t1"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("thread touched: %v", err)
		}
	})
	t.Run("after the list grew", func(t *testing.T) {
		set := &swapSet{}
		grow, err := NewTool("grow", "adds theme to the set", func(ctx context.Context, in struct{}) (string, error) {
			set.set(namedTool(t, "theme", "server theme"))
			return "grown", nil
		})
		if err != nil {
			t.Fatal(err)
		}
		p := Script(Turn{Calls: []ScriptedCall{{ID: "g1", Name: "grow", Args: `{}`}}}, Turn{Calls: themeCalls("f1")}, Turn{Text: "done"})
		a := mustNew(t, p, WithTools(grow), WithToolSets(set))
		res, err := a.Execute(t.Context(), Input{Messages: []agui.Message{UserText("hi")}, Tools: []agui.Tool{themeTool()}})
		if agui.CodeOf(err) != CodeToolNameClash || res.FinishReason != FinishError {
			t.Fatalf("%v %s", err, res.FinishReason)
		}
		if p.Calls() != 1 {
			t.Fatalf("the model was asked %d times, want 1 (the clash comes before the second turn's call)", p.Calls())
		}
		for _, m := range res.Messages {
			if tm, ok := m.(*agui.ToolMessage); ok && tm.ToolCallID == "f1" {
				t.Fatal("the clashing call was recorded")
			}
		}
	})
}
