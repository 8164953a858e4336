package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
	"github.com/agui-go/agui/loop"
)

// travelState is the subgraphs page's shared state: what each specialist
// found, what the user chose, and which agent is at work.
type travelState struct {
	Itinerary    itinerary    `json:"itinerary"`
	Experiences  []experience `json:"experiences"`
	Flights      []tripFlight `json:"flights"`
	Hotels       []tripHotel  `json:"hotels"`
	PlanningStep string       `json:"planning_step"`
	ActiveAgent  string       `json:"active_agent"`
}

// itinerary is what the user chose.
type itinerary struct {
	Flight *tripFlight `json:"flight,omitempty"`
	Hotel  *tripHotel  `json:"hotel,omitempty"`
}

// tripFlight is one flight option, as the page's card shows it.
type tripFlight struct {
	Airline   string `json:"airline"`
	Departure string `json:"departure"`
	Arrival   string `json:"arrival"`
	Price     string `json:"price"`
	Duration  string `json:"duration"`
}

// tripHotel is one hotel option.
type tripHotel struct {
	Name          string `json:"name"`
	Location      string `json:"location"`
	PricePerNight string `json:"price_per_night"`
	Rating        string `json:"rating"`
}

// experience is a restaurant or an activity.
type experience struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Description string `json:"description"`
	Location    string `json:"location"`
}

// The specialists search a fixed catalogue: the page's itinerary strip
// is Amsterdam to San Francisco, and its tests look for these options.
var (
	travelFlights = []tripFlight{
		{"KLM", "Amsterdam (AMS)", "San Francisco (SFO)", "$650", "11h 30m"},
		{"United", "Amsterdam (AMS)", "San Francisco (SFO)", "$720", "12h 15m"},
	}
	travelHotels = []tripHotel{
		{"Hotel Zephyr", "Fisherman's Wharf", "$280/night", "4.2 stars"},
		{"The Ritz-Carlton", "Nob Hill", "$550/night", "4.8 stars"},
		{"Hotel Zoe", "Union Square", "$320/night", "4.4 stars"},
	}
	travelExperiences = []experience{
		{"Pier 39", "activity", "Waterfront shops, street performers and a colony of sea lions", "Fisherman's Wharf"},
		{"Golden Gate Bridge", "activity", "A walk or a ride across the city's landmark", "Golden Gate"},
		{"Swan Oyster Depot", "restaurant", "A long-running seafood counter with oysters shucked to order", "Polk Street"},
		{"Tartine Bakery", "restaurant", "Country loaves and morning buns worth the queue", "Mission District"},
	}
)

// trip is what the supervisor hands a specialist.
type trip struct {
	Origin      string `json:"origin,omitempty" jsonschema:"where the trip starts (default Amsterdam)"`
	Destination string `json:"destination,omitempty" jsonschema:"where the trip goes (default San Francisco)"`
}

// route is the trip with its defaults.
func (t trip) route() (string, string) {
	return orDefault(t.Origin, "Amsterdam"), orDefault(t.Destination, "San Francisco")
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// choice is what the page's interrupt card shows: the specialist's
// message, the options, the one it recommends and who asks.
type choice[T any] struct {
	Message        string `json:"message"`
	Options        []T    `json:"options"`
	Recommendation T      `json:"recommendation"`
	Agent          string `json:"agent"`
}

// supervisorInstructions is the supervisor's system prompt; the trip's
// status follows it, rendered from the state on every turn.
const supervisorInstructions = `You are a travel planning supervisor. You plan a trip by handing each part to a specialist, one at a time, in this order:
- flights_agent finds flights and lets the user choose one;
- hotels_agent finds hotels and lets the user choose one;
- experiences_agent recommends restaurants and activities.
Call the specialist for the first part the status below says is missing. When every part is done, summarise the trip for the user.`

// travelStatus renders the trip's status for the supervisor: which parts
// are done, and what the user chose.
func travelStatus(state json.RawMessage, items []agui.ContextItem) string {
	var st travelState
	_ = json.Unmarshal(state, &st) // a state that does not decode is an empty trip
	chosen, _ := json.Marshal(st.Itinerary)
	status := fmt.Sprintf("Current status:\n- Flights found: %t\n- Hotels found: %t\n- Experiences found: %t\n- Chosen by the user: %s",
		st.Itinerary.Flight != nil, st.Itinerary.Hotel != nil, len(st.Experiences) > 0, chosen)
	if len(items) > 0 {
		status += "\n\n" + loop.DefaultRender(nil, items)
	}
	return status
}

// registerTravel serves subgraphs: a supervisor that hands the trip to
// specialised agents. The flights and hotels agents are questions
// (loop.NewQuestion with loop.Prompt): each offers its options and waits
// for the user's pick. The page is built on CopilotKit's
// useLangGraphInterrupt, so the agent pauses in that dialect
// (loop.WithLangGraphInterrupts): CUSTOM on_interrupt with the choice,
// answered by forwardedProps.command.resume. The experiences agent is a
// subagent (loop.Delegate) with a model of its own, so its events carry
// SUBAGENT_* attribution. Each specialist writes what it found and what
// the user chose into the shared state the page renders.
func registerTravel(g *gin.RouterGroup, path string, provider loop.Provider, opts []core.HandlerOption) error {
	flights, err := specialist("flights_agent", "Finds flights for the trip and lets the user choose one", "flights",
		func(t trip) choice[tripFlight] {
			from, to := t.route()
			return choice[tripFlight]{
				Message:        fmt.Sprintf("%d flights from %s to %s. %s is the cheaper one and usually on time.", len(travelFlights), from, to, travelFlights[0].Airline),
				Options:        travelFlights,
				Recommendation: travelFlights[0],
			}
		},
		func(st *travelState, f tripFlight) string {
			st.Flights, st.Itinerary.Flight = travelFlights, &f
			return fmt.Sprintf("The user chose the %s flight from %s to %s (%s, %s).", f.Airline, f.Departure, f.Arrival, f.Price, f.Duration)
		})
	if err != nil {
		return err
	}
	hotels, err := specialist("hotels_agent", "Finds hotels at the destination and lets the user choose one", "hotels",
		func(t trip) choice[tripHotel] {
			_, to := t.route()
			return choice[tripHotel]{
				Message:        fmt.Sprintf("%d hotels in %s. %s balances price, rating and location best.", len(travelHotels), to, travelHotels[2].Name),
				Options:        travelHotels,
				Recommendation: travelHotels[2],
			}
		},
		func(st *travelState, h tripHotel) string {
			st.Hotels, st.Itinerary.Hotel = travelHotels, &h
			return fmt.Sprintf("The user chose %s in %s (%s).", h.Name, h.Location, h.PricePerNight)
		})
	if err != nil {
		return err
	}
	experiences, err := experiencesAgent(provider)
	if err != nil {
		return err
	}
	a, err := loop.NewTyped[travelState](provider, loop.WithTools(flights, hotels, experiences),
		loop.WithInstructions(supervisorInstructions), loop.WithRenderContext(travelStatus), loop.WithLangGraphInterrupts())
	if err != nil {
		return err
	}
	return ginagui.Register(g, path, a, opts...)
}

// specialist is a question tool named name: a call asks the user to
// choose from ask's options, and choose records the choice in the state
// and says what it was. An answer that is none of the options chooses
// nothing, and the result says so.
func specialist[T comparable](name, description, agent string, ask func(trip) choice[T], choose func(*travelState, T) string) (loop.Tool, error) {
	q, err := loop.NewQuestion(name, description, func(ctx context.Context, t trip, answer T) (string, error) {
		if !slices.Contains(ask(t).Options, answer) {
			// The page sends back an option it was shown; anything else
			// is no choice, and the supervisor may ask again.
			return "The user's answer is none of the options offered: nothing was chosen.", nil
		}
		var said string
		err := loop.UpdateState(ctx, func(st *travelState) {
			said = choose(st, answer)
			st.ActiveAgent, st.PlanningStep = agent, agent+"_chosen"
		})
		return said, err
	})
	if err != nil {
		return loop.Tool{}, err
	}
	return loop.Prompt(q, func(ctx context.Context, t trip) any {
		c := ask(t)
		c.Agent = agent
		return c
	})
}

// experiencesAgent is the experiences specialist: a subagent that tells
// the user what the catalogue has, around a tool that puts the
// experiences in the state.
func experiencesAgent(provider loop.Provider) (loop.Tool, error) {
	var list strings.Builder
	for _, e := range travelExperiences {
		fmt.Fprintf(&list, "- %s (%s, %s): %s\n", e.Name, e.Type, e.Location, e.Description)
	}
	sub, err := loop.New(provider, loop.WithInstructions("You are the experiences agent: you recommend restaurants and activities. These are the ones found for the trip; tell the user about them briefly.\n"+list.String()))
	if err != nil {
		return loop.Tool{}, err
	}
	delegate, err := loop.Delegate("experiences_agent", "Recommends restaurants and activities at the destination", sub)
	if err != nil {
		return loop.Tool{}, err
	}
	// The tool is the delegation, with the state written around it: the
	// page shows the agent at work, then what it found.
	return loop.RawTool(delegate.Name(), delegate.Spec().Description, delegate.Spec().Schema, func(ctx context.Context, args json.RawMessage) (string, error) {
		if err := loop.UpdateState(ctx, func(st *travelState) { st.ActiveAgent, st.PlanningStep = "experiences", "experiences" }); err != nil {
			return "", err
		}
		out, err := delegate.Run(ctx, args)
		if err != nil {
			return "", err
		}
		return out, loop.UpdateState(ctx, func(st *travelState) { st.Experiences, st.PlanningStep = travelExperiences, "experiences_found" })
	})
}
