package main

import (
	"context"
	"fmt"

	"github.com/agui-go/agui/aguiotel"
	"github.com/agui-go/agui/loop"
)

// newLoopAgent is the built-in agent loop on a scripted model (unless
// demo.model chooses a real one), so that the route works offline and the
// same way every time. Each user message plays
// the script from the start: turn 1 reasons, says what it will do and calls
// get_weather and book_trip in parallel; book_trip needs approval, so the
// run ends with a tool_approval interrupt. The resume (approved or not)
// records book_trip's result and turn 2 answers. opts come after the
// demo's own options (tests set the checkpoint store with them).
func newLoopAgent(opts ...loop.Option) (*loop.Agent, error) {
	return newLoopAgentWith(loopDemo{}, opts...)
}

// newLoopAgentWith is newLoopAgent whose tools log each start to
// demo.logger and whose booking takes demo.bookDelay.
func newLoopAgentWith(demo loopDemo, opts ...loop.Option) (*loop.Agent, error) {
	type cityIn struct {
		City string `json:"city" jsonschema:"the city"`
	}
	type tripIn struct {
		City   string `json:"city" jsonschema:"where to go"`
		Nights int    `json:"nights" jsonschema:"how many nights"`
	}
	weather, err := loop.NewTool("get_weather", "Current weather for a city",
		func(ctx context.Context, in cityIn) (map[string]any, error) {
			demo.started(ctx, "get_weather")
			return map[string]any{"city": in.City, "tempC": 21, "sky": "sunny"}, nil
		})
	if err != nil {
		return nil, err
	}
	book, err := loop.NewTool("book_trip", "Books a hotel; needs the user's approval",
		func(ctx context.Context, in tripIn) (string, error) {
			demo.started(ctx, "book_trip")
			if err := demo.book(ctx); err != nil {
				return "", err
			}
			return fmt.Sprintf("booked %d nights in %s", in.Nights, in.City), nil
		})
	if err != nil {
		return nil, err
	}
	script := loop.Script(
		loop.Turn{
			Reasoning: "The user wants a trip: check the weather, then book.",
			Text:      "Let me check the weather and book your trip.",
			Calls: []loop.ScriptedCall{
				{Name: "get_weather", Args: `{"city":"Oslo"}`},
				{Name: "book_trip", Args: `{"city":"Oslo","nights":2}`},
			},
			Usage: loop.Usage{InputTokens: 120, OutputTokens: 40},
		},
		loop.Turn{
			Text:  "Oslo is sunny at 21°C. Your trip is settled as you decided.",
			Usage: loop.Usage{InputTokens: 200, OutputTokens: 20},
		},
	)
	if weather, err = aguiotel.Tool(weather); err != nil {
		return nil, err
	}
	if book, err = aguiotel.Tool(book); err != nil {
		return nil, err
	}
	provider, err := demo.model.New(aguiotel.Provider(script, "scripted-travel", aguiotel.WithProviderName("scripted")))
	if err != nil {
		return nil, err
	}
	return loop.New(provider, append([]loop.Option{
		loop.WithInstructions("You are a travel assistant."),
		loop.WithTools(weather, book),
		loop.WithNeedsApproval(func(c loop.Call) bool { return c.Name == "book_trip" }),
	}, opts...)...)
}
