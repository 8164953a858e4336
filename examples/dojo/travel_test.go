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
)

// travelRun is one run of the subgraphs page: its view, and the
// on_interrupt value it ended with ("" for none).
func travelRun(t *testing.T, agent *client.Agent, in *agui.RunAgentInput) (*client.View, string) {
	t.Helper()
	view, err := client.NewView(in)
	if err != nil {
		t.Fatal(err)
	}
	var asked string
	for ev, err := range agent.Events(t.Context(), in, view) {
		if err != nil {
			t.Fatal(err)
		}
		if c, ok := ev.(*agui.Custom); ok && c.Name == loop.EventOnInterrupt {
			// The value is a JSON string, as the page's hook reads it.
			raw, _ := json.Marshal(c.Value)
			if err := json.Unmarshal(raw, &asked); err != nil {
				t.Fatalf("on_interrupt value %s is no string", raw)
			}
		}
	}
	if view.RunError != nil {
		t.Fatalf("run error %+v", view.RunError)
	}
	if o := view.Outcome(); o.Type != agui.OutcomeSuccess {
		t.Fatalf("outcome %+v: the page's hook stops on an interrupt outcome", o)
	}
	return view, asked
}

// next is the page's next run: the thread's messages and state as the
// view holds them, and the pick as forwardedProps.command.resume, a
// JSON string as useLangGraphInterrupt's resolve sends it.
func next(t *testing.T, runID string, view *client.View, pick any) *agui.RunAgentInput {
	t.Helper()
	in := agui.NewInput("thread-1", runID)
	in.Messages = view.Messages
	in.State = view.State
	b, err := json.Marshal(pick)
	if err != nil {
		t.Fatal(err)
	}
	in.ForwardedProps = map[string]any{"command": map[string]any{"resume": string(b)}}
	return in
}

// travelModel answers as the Dojo's fixtures do for this page: by the
// status lines of the supervisor's system prompt, and by the experiences
// agent's own prompt.
func travelModel(ctx context.Context, req loop.ModelRequest) iter.Seq2[loop.Delta, error] {
	call := func(name, args string) loop.Delta {
		return loop.Delta{ToolCall: &loop.ToolCallDelta{ID: "call-" + name, Name: name, Args: args}}
	}
	var d loop.Delta
	switch sys := req.Instructions; {
	case strings.Contains(sys, "You are the experiences agent"):
		d = loop.Delta{Text: "Try Pier 39 and Tartine Bakery."}
	case strings.Contains(sys, "Flights found: false"):
		d = call("flights_agent", `{"destination":"San Francisco"}`)
	case strings.Contains(sys, "Hotels found: false"):
		d = call("hotels_agent", `{}`)
	case strings.Contains(sys, "Experiences found: false"):
		d = call("experiences_agent", `{"task":"restaurants and activities in San Francisco"}`)
	default:
		d = loop.Delta{Text: "Your trip is planned."}
	}
	return func(yield func(loop.Delta, error) bool) { yield(d, nil) }
}

// The supervisor hands the trip to the flights and hotels agents, which
// pause for the user's pick in useLangGraphInterrupt's dialect, then to
// the experiences subagent; the state gathers what the page renders.
func TestTravelSupervisor(t *testing.T) {
	agent, err := client.New(serve(t, loop.ProviderFunc(travelModel)) + "/subgraphs")
	if err != nil {
		t.Fatal(err)
	}
	in := input("Help me plan a trip to San Francisco")
	in.State = map[string]any{"itinerary": map[string]any{}, "experiences": []any{}, "flights": []any{}, "hotels": []any{}, "planning_step": "start", "active_agent": "supervisor"}
	view, asked := travelRun(t, agent, in)
	var flights choice[tripFlight]
	if err := json.Unmarshal([]byte(asked), &flights); err != nil || flights.Agent != "flights" || len(flights.Options) != 2 || flights.Recommendation.Airline != "KLM" {
		t.Fatalf("flights asked %q (%v)", asked, err)
	}

	view, asked = travelRun(t, agent, next(t, "run-2", view, flights.Options[1]))
	var hotels choice[tripHotel]
	if err := json.Unmarshal([]byte(asked), &hotels); err != nil || hotels.Agent != "hotels" || hotels.Recommendation.Name != "Hotel Zoe" {
		t.Fatalf("hotels asked %q (%v)", asked, err)
	}
	view, asked = travelRun(t, agent, next(t, "run-3", view, hotels.Options[1]))
	if asked != "" {
		t.Fatalf("asked again: %s", asked)
	}
	var st travelState
	b, _ := json.Marshal(view.State)
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	if st.Itinerary.Flight == nil || st.Itinerary.Flight.Airline != "United" || st.Itinerary.Hotel == nil || st.Itinerary.Hotel.Name != "The Ritz-Carlton" ||
		len(st.Experiences) != 4 || len(st.Flights) != 2 || len(st.Hotels) != 3 || st.ActiveAgent != "experiences" {
		t.Fatalf("state %s", b)
	}
	if got := lastAssistant(t, view).Content; got != "Your trip is planned." {
		t.Fatalf("answer %q", got)
	}
}

// A pick that is none of the options is refused: the supervisor reads an
// error result, and nothing is chosen.
func TestTravelRefusesAnUnofferedPick(t *testing.T) {
	model := loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{{ID: "call-f", Name: "flights_agent", Args: `{}`}}},
		loop.Turn{Text: "That flight is not on offer."},
	)
	agent, err := client.New(serve(t, model) + "/subgraphs")
	if err != nil {
		t.Fatal(err)
	}
	view, _ := travelRun(t, agent, input("Find me flights"))
	view, _ = travelRun(t, agent, next(t, "run-2", view, tripFlight{Airline: "Pan Am", Departure: "x", Arrival: "y", Price: "$1", Duration: "1h"}))
	for _, m := range view.Messages {
		if tm, ok := m.(*agui.ToolMessage); ok && tm.ToolCallID == "call-f" && !strings.Contains(tm.Content.String(), "none of the options") {
			t.Fatalf("result %q", tm.Content.String())
		}
	}
	if s, _ := json.Marshal(view.State); strings.Contains(string(s), "Pan Am") {
		t.Fatalf("state %s", s)
	}
}
