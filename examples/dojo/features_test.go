package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/client"
	"github.com/agui-go/agui/loop"
)

// serve starts the Dojo's router on provider and returns its base URL.
func serve(t *testing.T, provider loop.Provider) string {
	t.Helper()
	base, _ := serveBackground(t, provider)
	return base
}

// serveBackground is serve, and returns the Background the router's
// background work runs on too; its research steps take no time.
func serveBackground(t *testing.T, provider loop.Provider) (string, *loop.Background) {
	t.Helper()
	bg, err := loop.NewBackground(loop.WithTaskActivityType(taskActivity))
	if err != nil {
		t.Fatal(err)
	}
	r, err := newRouter("/dojo", provider, bg, 0)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(r)
	t.Cleanup(func() {
		srv.Close()
		if err := bg.Shutdown(context.Background()); err != nil {
			t.Error(err)
		}
	})
	return srv.URL + "/dojo", bg
}

// runFeature runs feature once with the Go client: the user's text, with the
// page's frontend tools and state, and returns what the client reduced.
func runFeature(t *testing.T, base, feature string, in *agui.RunAgentInput) *client.View {
	t.Helper()
	agent, err := client.New(base + "/" + feature)
	if err != nil {
		t.Fatal(err)
	}
	view, err := agent.Run(t.Context(), in)
	if err != nil {
		t.Fatal(err)
	}
	if out := view.Outcome(); out.Type != agui.OutcomeSuccess {
		t.Fatalf("%s: outcome %+v", feature, out)
	}
	return view
}

// input is a first run's input: one user message, and the page's tools.
func input(text string, tools ...agui.Tool) *agui.RunAgentInput {
	in := agui.NewInput("thread-1", "run-1")
	in.Messages = []agui.Message{&agui.UserMessage{ID: "u1", Content: agui.TextContent(text)}}
	in.Tools = tools
	return in
}

// lastAssistant is the view's last assistant message.
func lastAssistant(t *testing.T, view *client.View) *agui.AssistantMessage {
	t.Helper()
	for _, m := range slices.Backward(view.Messages) {
		if a, ok := m.(*agui.AssistantMessage); ok {
			return a
		}
	}
	t.Fatalf("no assistant message in %+v", view.Messages)
	return nil
}

// TestFeaturesAtTheDojoPaths holds the served paths to the Dojo's map for
// the ag-ui .NET integration (v1_agentic_chat shares /agentic_chat) and
// the features served besides at their names.
func TestFeaturesAtTheDojoPaths(t *testing.T) {
	var got []string
	for _, f := range features(nil, 0) {
		got = append(got, f.name)
	}
	want := []string{
		"agentic_chat", "backend_tool_rendering", "human_in_the_loop", "agentic_generative_ui",
		"shared_state", "predictive_state_updates", "tool_based_generative_ui",
		"agentic_chat_reasoning", "agentic_chat_multimodal", "interrupt", "subgraphs",
		"a2ui_fixed_schema", "a2ui_dynamic_schema", "a2ui_advanced", "a2ui_recovery",
		"background_agents", "observational_memory",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("features %v, want %v", got, want)
	}
}

// TestEveryFeatureAnswers runs each feature on the offline model and reads
// its capabilities.
func TestEveryFeatureAnswers(t *testing.T) {
	base := serve(t, loop.ProviderFunc(offline))
	for _, f := range features(nil, 0) {
		view := runFeature(t, base, f.name, input("Hi"))
		if got := lastAssistant(t, view).Content; got != offlineText {
			t.Errorf("%s answered %q", f.name, got)
		}
		resp, err := http.Get(base + "/" + f.name + "/capabilities")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s/capabilities: %s", f.name, resp.Status)
		}
	}
}
