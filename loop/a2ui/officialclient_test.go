package a2ui_test

import (
	"context"
	"encoding/json"
	"iter"
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/internal/officialclient"
	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/loop/a2ui"
)

// The official client (@ag-ui/client) runs the recovery flow: it accepts
// the stream without complaint, and what it keeps is what a page paints:
// the generate_a2ui tool message carrying the envelope, and the
// a2ui-surface activity message carrying the same operations.
func TestOfficialClientPaintsSurface(t *testing.T) {
	sub := &subModel{answer: func(req loop.ModelRequest) string {
		if strings.Contains(req.Instructions, "Previous attempt was invalid") {
			return validHotels
		}
		return brokenHotels
	}}
	gen, err := a2ui.Generate(sub, a2ui.WithCatalog(*catalog(t)), a2ui.WithActivity())
	if err != nil {
		t.Fatal(err)
	}
	planner := loop.Script(loop.Turn{Calls: []loop.ScriptedCall{{Name: a2ui.GenerateToolName, Args: `{"intent":"create"}`}}}, loop.Turn{Text: "Done!"})
	res := officialclient.Run(t, serve(t, newAgent(t, planner, gen)), officialclient.Session{Steps: []officialclient.Step{
		{Messages: []agui.Message{&agui.UserMessage{ID: "u1", Content: agui.TextContent("Compare 3 luxury hotels with ratings and prices.")}}},
	}})
	if err := res[0].Clean(); err != nil {
		t.Fatal(err)
	}
	var tool, activity map[string]any
	for _, m := range res[0].Messages {
		switch m := m.(type) {
		case *agui.ToolMessage:
			if err := json.Unmarshal([]byte(m.Content.String()), &tool); err != nil {
				t.Fatalf("tool message %q: %v", m.Content.String(), err)
			}
		case *agui.ActivityMessage:
			if m.ActivityType == a2ui.ActivityType {
				activity = m.Content
			}
		}
	}
	ops, ok := tool["a2ui_operations"].([]any)
	if !ok || len(ops) != 3 {
		t.Fatalf("tool message %v", tool)
	}
	if got, _ := json.Marshal(activity["a2ui_operations"]); string(got) != mustJSON(t, ops) {
		t.Fatalf("activity message %v, tool message %v", activity, tool)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A click on a surface reaches the model: the official client sends the
// action in forwardedProps, and InsertAction gives the model its words.
func TestOfficialClientSendsAction(t *testing.T) {
	echo := loop.ProviderFunc(func(_ context.Context, req loop.ModelRequest) iter.Seq2[loop.Delta, error] {
		last := req.Messages[len(req.Messages)-1].(*agui.UserMessage).Content.String()
		return func(yield func(loop.Delta, error) bool) { yield(loop.Delta{Text: "saw: " + last}, nil) }
	})
	agent, err := loop.New(echo, loop.WithBeforeModelCall(a2ui.InsertAction))
	if err != nil {
		t.Fatal(err)
	}
	res := officialclient.Run(t, serve(t, agent), officialclient.Session{Steps: []officialclient.Step{{
		Messages:       []agui.Message{&agui.UserMessage{ID: "u1", Content: agui.TextContent("Find flights")}},
		ForwardedProps: json.RawMessage(`{"a2uiAction":{"userAction":{"name":"book_flight","surfaceId":"flight-search-results","sourceComponentId":"flight-card","context":{"flightNumber":"UA 123"}}}}`),
	}}})
	if err := res[0].Clean(); err != nil {
		t.Fatal(err)
	}
	last := res[0].Messages[len(res[0].Messages)-1].(*agui.AssistantMessage)
	if want := `saw: User performed action "book_flight" on surface "flight-search-results" (component: flight-card). Context: {"flightNumber":"UA 123"}`; last.Content != want {
		t.Fatalf("the model saw %q, want %q", last.Content, want)
	}
}
