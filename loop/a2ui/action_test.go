package a2ui_test

import (
	"context"
	"encoding/json"
	"iter"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/loop/a2ui"
)

func TestActionFrom(t *testing.T) {
	raw := json.RawMessage(`{"a2uiAction":{"userAction":{"name":"book_flight","surfaceId":"flight-search-results","sourceComponentId":"flight-card","context":{"flightNumber":"UA 123"}}}}`)
	a, ok := a2ui.ActionFrom(&agui.RunAgentInput{ForwardedProps: raw})
	if !ok || a.Name != "book_flight" || a.SurfaceID != "flight-search-results" || a.Context["flightNumber"] != "UA 123" {
		t.Fatalf("from raw JSON: %+v %v", a, ok)
	}
	// Forwarded props built in Go (a map) read the same.
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	b, ok := a2ui.ActionFrom(&agui.RunAgentInput{ForwardedProps: m})
	if !ok || b.Name != a.Name {
		t.Fatalf("from a map: %+v %v", b, ok)
	}
	for _, fp := range []any{nil, json.RawMessage(`{}`), json.RawMessage(`{"a2uiAction":{}}`), json.RawMessage(`{"a2uiAction":{"userAction":{"surfaceId":"s"}}}`),
		json.RawMessage(`{"a2uiAction":"click"}`), json.RawMessage(`[1]`), func() {}} {
		if a, ok := a2ui.ActionFrom(&agui.RunAgentInput{ForwardedProps: fp}); ok {
			t.Errorf("%v: read action %+v", fp, a)
		}
	}
	if _, ok := a2ui.ActionFrom(nil); ok {
		t.Error("nil input has an action")
	}
}

func TestActionMessage(t *testing.T) {
	a := a2ui.Action{Name: "book", SurfaceID: "s", SourceComponentID: "btn", Context: map[string]any{"id": "1"}}
	if got := a.Message(); got != `User performed action "book" on surface "s" (component: btn). Context: {"id":"1"}` {
		t.Fatal(got)
	}
	if got := (a2ui.Action{Name: "ok", SurfaceID: "s"}).Message(); got != `User performed action "ok" on surface "s". Context: {}` {
		t.Fatal(got)
	}
}

// The action's message goes right after the input's messages, before
// what the run added, on every turn of the run; the transcript keeps
// none of it.
func TestInsertAction(t *testing.T) {
	var seen [][]string
	script := loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{{ID: "c1", Name: "look", Args: `{}`}}},
		loop.Turn{Text: "Booked."})
	model := loop.ProviderFunc(func(ctx context.Context, req loop.ModelRequest) iter.Seq2[loop.Delta, error] {
		var roles []string
		for _, m := range req.Messages {
			roles = append(roles, string(m.Role())+":"+m.MessageID())
		}
		seen = append(seen, roles)
		return script.Stream(ctx, req)
	})
	look, err := loop.NewTool("look", "look", func(context.Context, struct{}) (string, error) { return "ok", nil })
	if err != nil {
		t.Fatal(err)
	}
	agent, err := loop.New(model, loop.WithTools(look), loop.WithBeforeModelCall(a2ui.InsertAction))
	if err != nil {
		t.Fatal(err)
	}
	in := &agui.RunAgentInput{ThreadID: "t", RunID: "r2", Messages: []agui.Message{loop.UserText("Find hotels")},
		ForwardedProps: json.RawMessage(`{"a2uiAction":{"userAction":{"name":"book_hotel","surfaceId":"hotels"}}}`)}
	in.Messages[0].(*agui.UserMessage).ID = "u1"
	res, err := agent.Execute(core.ContextWithInput(t.Context(), in), loop.Input{ThreadID: in.ThreadID, RunID: in.RunID, Messages: in.Messages})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 2 || seen[0][1] != "user:a2ui-action-r2" || seen[1][1] != "user:a2ui-action-r2" || len(seen[1]) != 4 {
		t.Fatalf("requests %v", seen)
	}
	for _, m := range res.Messages {
		if m.MessageID() == "a2ui-action-r2" {
			t.Fatal("the action's message is in the transcript")
		}
	}
	// No action, no change.
	req := loop.ModelRequest{Messages: []agui.Message{loop.UserText("hi")}}
	out, _ := a2ui.InsertAction(core.ContextWithInput(t.Context(), &agui.RunAgentInput{}), req)
	if len(out.Messages) != 1 {
		t.Fatal("a request without an action changed")
	}
}
