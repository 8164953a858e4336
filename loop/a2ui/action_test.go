package a2ui_test

import (
	"encoding/json"
	"testing"

	"github.com/agui-go/agui"
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
