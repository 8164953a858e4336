package main

import (
	"context"
	"encoding/json"
	"iter"
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/client"
	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/loop/a2ui"
)

// toolResult is the content of the view's one tool message.
func toolResult(t *testing.T, view *client.View) string {
	t.Helper()
	var out []string
	for _, m := range view.Messages {
		if tm, ok := m.(*agui.ToolMessage); ok {
			out = append(out, tm.Content.String())
		}
	}
	if len(out) != 1 {
		t.Fatalf("tool messages %v", out)
	}
	return out[0]
}

// painted decodes an envelope and returns its surface's operations.
func painted(t *testing.T, content string) a2ui.Envelope {
	t.Helper()
	var e a2ui.Envelope
	if err := json.Unmarshal([]byte(content), &e); err != nil || len(e.Operations) != 3 {
		t.Fatalf("not a painted surface (%v): %s", err, content)
	}
	return e
}

// The fixed surfaces are valid against the fixed catalog's types, and
// search_flights answers with the flights laid out on them.
func TestFixedSchemaSurfaces(t *testing.T) {
	fixed := &a2ui.Catalog{ID: fixedCatalog, Components: map[string]a2ui.ComponentType{"Row": {}, "FlightCard": {}, "HotelCard": {}, "StarRating": {}}}
	for _, s := range []a2ui.Surface{flightSurface(nil), hotelSurface(nil)} {
		if ps := a2ui.Validate(s, fixed, a2ui.Limits{}); ps != nil {
			t.Errorf("%s: %v", s.ID, ps)
		}
	}
	base := serve(t, loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{{Name: "search_flights", Args: `{"flights":[{"airline":"United Airlines","flightNumber":"UA 123","origin":"SFO","destination":"JFK","price":"$289"}]}`}}},
		loop.Turn{Text: "Here are your flights."},
	))
	e := painted(t, toolResult(t, runFeature(t, base, "a2ui_fixed_schema", input("Find flights from SFO to JFK for next Tuesday."))))
	if c := e.Operations[0].CreateSurface; c.SurfaceID != "flight-search-results" || c.CatalogID != fixedCatalog {
		t.Fatalf("createSurface %+v", c)
	}
	data, _ := json.Marshal(e.Operations[2].UpdateDataModel.Value)
	if !strings.Contains(string(data), `"flightNumber":"UA 123"`) {
		t.Fatalf("data model %s", data)
	}
}

// planner answers the planner's turns from script and the sub-model's
// (offered render_a2ui alone) with surface.
func planner(script *loop.Scripted, surface func(loop.ModelRequest) string) loop.Provider {
	return loop.ProviderFunc(func(ctx context.Context, req loop.ModelRequest) iter.Seq2[loop.Delta, error] {
		if len(req.Tools) == 1 && req.Tools[0].Name == a2ui.RenderToolName {
			args := surface(req)
			return func(yield func(loop.Delta, error) bool) {
				yield(loop.Delta{ToolCall: &loop.ToolCallDelta{ID: "sub-1", Name: a2ui.RenderToolName, Args: args}}, nil)
			}
		}
		return script.Stream(ctx, req)
	})
}

const (
	rootOnly  = `{"surfaceId":"hotel-comparison","components":[{"id":"root","component":"Row","children":{"componentId":"card","path":"/items"}}],"data":{"items":[{"name":"The Ritz"}]}}`
	rootCards = `{"surfaceId":"hotel-comparison","components":[{"id":"root","component":"Row","children":{"componentId":"card","path":"/items"}},{"id":"card","component":"HotelCard","name":{"path":"name"}}],"data":{"items":[{"name":"The Ritz"}]}}`
)

// a2ui_recovery: an invalid first surface is retried with what was wrong
// and the fixed one paints, on the dynamic catalog; one that stays
// invalid ends with the failure the page shows.
func TestRecovery(t *testing.T) {
	script := func() *loop.Scripted {
		return loop.Script(loop.Turn{Calls: []loop.ScriptedCall{{Name: a2ui.GenerateToolName, Args: `{"intent":"create"}`}}}, loop.Turn{Text: "Done!"})
	}
	base := serve(t, planner(script(), func(req loop.ModelRequest) string {
		if strings.Contains(req.Instructions, "Previous attempt was invalid") {
			return rootCards
		}
		return rootOnly
	}))
	e := painted(t, toolResult(t, runFeature(t, base, "a2ui_recovery", input("Compare 3 luxury hotels with ratings and prices."))))
	if c := e.Operations[0].CreateSurface; c.SurfaceID != "hotel-comparison" || c.CatalogID != dynamicCatalog {
		t.Fatalf("createSurface %+v", c)
	}

	base = serve(t, planner(script(), func(loop.ModelRequest) string { return rootOnly }))
	var f a2ui.Failure
	if err := json.Unmarshal([]byte(toolResult(t, runFeature(t, base, "a2ui_recovery", input("Compare 3 broken hotels with ratings and prices.")))), &f); err != nil {
		t.Fatal(err)
	}
	if f.Code != "a2ui_recovery_exhausted" || len(f.Attempts) != 3 {
		t.Fatalf("failure %+v", f)
	}
}
