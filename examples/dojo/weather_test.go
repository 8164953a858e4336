package main

import (
	"encoding/json"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
)

func TestWeatherResultForTheCard(t *testing.T) {
	base := serve(t, loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{{ID: "call-1", Name: "get_weather", Args: `{"location":"San Francisco"}`}}},
		loop.Turn{Text: "Sunny."},
	))
	view := runFeature(t, base, "backend_tool_rendering", input("Weather in San Francisco?"))
	var result *agui.ToolMessage
	for _, m := range view.Messages {
		if tm, ok := m.(*agui.ToolMessage); ok && tm.ToolCallID == "call-1" {
			result = tm
		}
	}
	if result == nil {
		t.Fatalf("no result for call-1 in %+v", view.Messages)
	}
	var w weather
	if err := json.Unmarshal([]byte(result.Content.String()), &w); err != nil {
		t.Fatal(err)
	}
	if w != (weather{City: "San Francisco", Temperature: 20, Conditions: "sunny", Humidity: 50, WindSpeed: 10, FeelsLike: 25}) {
		t.Fatalf("report %+v", w)
	}
	if got := lastAssistant(t, view).Content; got != "Sunny." {
		t.Fatalf("answer %q", got)
	}
}
