package main

import (
	"context"
	"iter"
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
)

// lastUser is the text of req's last user message.
func lastUser(req loop.ModelRequest) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if u, ok := req.Messages[i].(*agui.UserMessage); ok {
			return u.Content.String()
		}
	}
	return ""
}

// The research runs in the background: the first run shows its card
// running with the topic, and the next run shows it completed and gives
// the model the findings.
func TestResearchInTheBackground(t *testing.T) {
	model := loop.ProviderFunc(func(ctx context.Context, req loop.ModelRequest) iter.Seq2[loop.Delta, error] {
		if strings.HasPrefix(lastUser(req), "Research") {
			return loop.Script(
				loop.Turn{Calls: []loop.ScriptedCall{{ID: "call-1", Name: "run_deep_research", Args: `{"topic":"Solana ecosystem"}`}}},
				loop.Turn{Text: "It runs in the background."},
			).Stream(ctx, req)
		}
		told := "no findings"
		for _, m := range req.Messages {
			if s, ok := m.(*agui.SystemMessage); ok && strings.Contains(s.Content, "deep-research pass") {
				told = "the findings arrived"
			}
		}
		return loop.Script(loop.Turn{Text: told}).Stream(ctx, req)
	})
	base, bg := serveBackground(t, model)
	in := input("Research the Solana ecosystem for me.")
	view := runFeature(t, base, "background_agents", in)
	acts := view.Activities()
	if len(acts) != 1 || acts[0].ActivityType != taskActivity || acts[0].Content["toolName"] != "run_deep_research" ||
		acts[0].Content["args"].(map[string]any)["topic"] != "Solana ecosystem" {
		t.Fatalf("activities %+v", acts)
	}
	if err := bg.Shutdown(t.Context()); err != nil { // the task finishes and delivers
		t.Fatal(err)
	}
	next := agui.NewInput("thread-1", "run-2")
	next.Messages = append(view.Messages, &agui.UserMessage{ID: "u2", Content: agui.TextContent("What did you find?")})
	view = runFeature(t, base, "background_agents", next)
	acts = view.Activities()
	if len(acts) != 1 || acts[0].Content["status"] != "completed" || acts[0].Content["result"].(map[string]any)["sources"] == nil {
		t.Fatalf("activities after the next run %+v", acts)
	}
	if got := lastAssistant(t, view).Content; got != "the findings arrived" {
		t.Fatalf("answer %q", got)
	}
}

// Once the thread's older messages pass the threshold, the next run
// shows an observation cycle, activated, with the observer's
// observations.
func TestMemoryObserves(t *testing.T) {
	model := loop.ProviderFunc(func(ctx context.Context, req loop.ModelRequest) iter.Seq2[loop.Delta, error] {
		if req.Instructions == loop.DefaultObserverInstructions {
			return loop.Script(loop.Turn{Text: "The user is vegetarian and plans two weeks in Japan."}).Stream(ctx, req)
		}
		return loop.Script(loop.Turn{Text: "Noted."}).Stream(ctx, req)
	})
	base := serve(t, model)
	view := runFeature(t, base, "observational_memory", input(strings.Repeat("I am vegetarian and I plan two weeks in Japan. ", 20)))
	if len(view.Activities()) != 0 {
		t.Fatalf("a cycle on the first turn: %+v", view.Activities())
	}
	next := agui.NewInput("thread-1", "run-2")
	next.Messages = append(view.Messages, &agui.UserMessage{ID: "u2", Content: agui.TextContent("Where should I eat?")})
	view = runFeature(t, base, "observational_memory", next)
	acts := view.Activities()
	if len(acts) != 1 || acts[0].ActivityType != memoryActivity || acts[0].Content["status"] != "activated" ||
		acts[0].Content["observations"] != "The user is vegetarian and plans two weeks in Japan." {
		t.Fatalf("activities %+v", acts)
	}
}
