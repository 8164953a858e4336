package main

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/loop/a2ui"
)

// The catalogs the Dojo's A2UI pages render with.
const (
	fixedCatalog   = "https://a2ui.org/demos/dojo/fixed_catalog.json"
	dynamicCatalog = "https://a2ui.org/demos/dojo/dynamic_catalog.json"
)

// flight is one result of search_flights, with what the fixed catalog's
// FlightCard shows.
type flight struct {
	ID            string `json:"id,omitempty"`
	Airline       string `json:"airline"`
	AirlineLogo   string `json:"airlineLogo,omitempty"`
	FlightNumber  string `json:"flightNumber"`
	Origin        string `json:"origin"`
	Destination   string `json:"destination"`
	Date          string `json:"date,omitempty"`
	DepartureTime string `json:"departureTime,omitempty"`
	ArrivalTime   string `json:"arrivalTime,omitempty"`
	Duration      string `json:"duration,omitempty"`
	Status        string `json:"status,omitempty"`
	StatusIcon    string `json:"statusIcon,omitempty"`
	Price         string `json:"price"`
}

// hotel is one result of search_hotels, with what HotelCard shows.
type hotel struct {
	ID       string  `json:"id,omitempty"`
	Name     string  `json:"name"`
	Location string  `json:"location,omitempty"`
	Rating   float64 `json:"rating"`
	Price    string  `json:"price"`
}

// bound returns a component's properties bound to the same-named fields
// of the repeated data item, plus extra.
func bound(extra map[string]any, fields ...string) map[string]any {
	props := map[string]any{}
	for _, f := range fields {
		props[f] = a2ui.Path(f)
	}
	for k, v := range extra {
		props[k] = v
	}
	return props
}

// bookAction is a card's button: the action the client sends back (in
// forwardedProps) with the item's fields named in context.
func bookAction(name string, fields ...string) map[string]any {
	with := map[string]any{}
	for _, f := range fields {
		with[f] = a2ui.Path(f)
	}
	return map[string]any{"event": map[string]any{"name": name, "context": with}}
}

// flightSurface lays out flights as a row of FlightCards.
func flightSurface(flights []flight) a2ui.Surface {
	return a2ui.Surface{
		ID:        "flight-search-results",
		CatalogID: fixedCatalog,
		Components: []a2ui.Component{
			{ID: "root", Type: "Row", Props: map[string]any{"children": a2ui.Template("flight-card", "/flights"), "gap": 16}},
			{ID: "flight-card", Type: "FlightCard", Props: bound(map[string]any{"action": bookAction("book_flight", "flightNumber", "price")},
				"airline", "airlineLogo", "flightNumber", "origin", "destination", "date", "departureTime", "arrivalTime", "duration", "status", "statusIcon", "price")},
		},
		Data: map[string]any{"flights": flights},
	}
}

// hotelSurface lays out hotels as a row of HotelCards, each with its
// StarRating.
func hotelSurface(hotels []hotel) a2ui.Surface {
	return a2ui.Surface{
		ID:        "hotel-search-results",
		CatalogID: fixedCatalog,
		Components: []a2ui.Component{
			{ID: "root", Type: "Row", Props: map[string]any{"children": a2ui.Template("hotel-card", "/hotels"), "gap": 16}},
			{ID: "hotel-card", Type: "HotelCard", Props: bound(map[string]any{"pricePerNight": a2ui.Path("price"), "action": bookAction("book_hotel", "name", "price")},
				"name", "location", "rating")},
		},
		Data: map[string]any{"hotels": hotels},
	}
}

// registerFixedSchema serves a2ui_fixed_schema: the model calls
// search_flights or search_hotels with the results, and the tool answers
// with a surface laid out in Go (the fixed schema), which the page's A2UI
// middleware paints from the tool result. A click on a card's button
// reaches the model with the next run (a2ui.InsertAction).
func registerFixedSchema(g *gin.RouterGroup, path string, provider loop.Provider, opts []core.HandlerOption) error {
	flights, err := loop.NewTool("search_flights", "Show flight search results to the user as cards",
		func(_ context.Context, in struct {
			Flights []flight `json:"flights" jsonschema:"the flights found"`
		}) (a2ui.Envelope, error) {
			return a2ui.Envelope{Operations: flightSurface(in.Flights).Operations()}, nil
		})
	if err != nil {
		return err
	}
	hotels, err := loop.NewTool("search_hotels", "Show hotel search results to the user as cards",
		func(_ context.Context, in struct {
			Hotels []hotel `json:"hotels" jsonschema:"the hotels found"`
		}) (a2ui.Envelope, error) {
			return a2ui.Envelope{Operations: hotelSurface(in.Hotels).Operations()}, nil
		})
	if err != nil {
		return err
	}
	a, err := loop.New(provider, loop.WithTools(flights, hotels), loop.WithBeforeModelCall(a2ui.InsertAction),
		loop.WithInstructions("You are a travel assistant. To show flights or hotels, call search_flights or search_hotels with the results; the page shows them as cards."))
	if err != nil {
		return err
	}
	return ginagui.Register(g, path, a, opts...)
}

// dynamic is the catalog the dynamic pages render with: its component
// types, for the sub-model's prompt and the surface check.
func dynamic() a2ui.Catalog {
	return a2ui.Catalog{ID: dynamicCatalog, Components: map[string]a2ui.ComponentType{
		"Row":            {Required: []string{"children"}},
		"HotelCard":      {Required: []string{"name"}},
		"ProductCard":    {Required: []string{"name"}},
		"TeamMemberCard": {Required: []string{"name"}},
		"StarRating":     {},
	}}
}

// generative returns the registration of a feature whose surfaces the
// model designs: the planner decides, generate_a2ui's sub-model call
// writes the surface, checked against the dynamic catalog and retried
// up to three times (the a2ui_recovery page shows the retries and the
// failure).
func generative(instructions string) func(*gin.RouterGroup, string, loop.Provider, []core.HandlerOption) error {
	return func(g *gin.RouterGroup, path string, provider loop.Provider, opts []core.HandlerOption) error {
		generate, err := a2ui.Generate(provider, a2ui.WithCatalog(dynamic()))
		if err != nil {
			return err
		}
		a, err := loop.New(provider, loop.WithTools(generate), loop.WithBeforeModelCall(a2ui.InsertAction), loop.WithInstructions(instructions))
		if err != nil {
			return err
		}
		return ginagui.Register(g, path, a, opts...)
	}
}

const generativeInstructions = "You are a helpful assistant with a visual display. When a comparison, a list, a directory or any visual answer helps, call generate_a2ui; then sum the result up in a sentence."
