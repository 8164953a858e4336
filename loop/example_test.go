package loop_test

import (
	"context"
	"fmt"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
)

type cityIn struct {
	City string `json:"city" jsonschema:"the city"`
}

type weather struct {
	City  string `json:"city"`
	TempC int    `json:"tempC"`
}

// A scripted model calls a typed tool for two cities at once, then
// answers; Execute runs the loop without AG-UI.
func ExampleAgent_Execute() {
	getWeather, err := loop.NewTool("get_weather", "Current weather for a city",
		func(ctx context.Context, in cityIn) (weather, error) {
			return weather{City: in.City, TempC: 21}, nil
		})
	if err != nil {
		panic(err)
	}
	model := loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{
			{ID: "call-1", Name: "get_weather", Args: `{"city":"Oslo"}`},
			{ID: "call-2", Name: "get_weather", Args: `{"city":"Rome"}`},
		}},
		loop.Turn{Text: "Both are at 21°C."},
	)
	agent, err := loop.New(model, loop.WithTools(getWeather), loop.WithToolConcurrency(4))
	if err != nil {
		panic(err)
	}
	res, err := agent.Execute(context.Background(), loop.Input{Messages: []agui.Message{loop.UserText("Weather in Oslo and Rome?")}})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.FinishReason, res.Steps)
	for _, m := range res.Messages {
		switch m := m.(type) {
		case *agui.ToolMessage:
			fmt.Println(m.ToolCallID, m.Content.String())
		case *agui.AssistantMessage:
			if m.Content != "" {
				fmt.Println(m.Content)
			}
		}
	}
	// Output:
	// stop 2
	// call-1 {"city":"Oslo","tempC":21}
	// call-2 {"city":"Rome","tempC":21}
	// Both are at 21°C.
}

// WithMaxSteps ends a run that keeps calling tools: a success that says so.
func ExampleWithMaxSteps() {
	echo, _ := loop.NewTool("echo", "echoes", func(ctx context.Context, in cityIn) (string, error) { return in.City, nil })
	call := func(id string) loop.Turn {
		return loop.Turn{Calls: []loop.ScriptedCall{{ID: id, Name: "echo", Args: `{"city":"x"}`}}}
	}
	agent, _ := loop.New(loop.Script(call("a"), call("b"), call("c")), loop.WithTools(echo), loop.WithMaxSteps(2))
	res, err := agent.Execute(context.Background(), loop.Input{Messages: []agui.Message{loop.UserText("research")}})
	fmt.Println(res.FinishReason, res.Steps, err)
	// Output: max-steps 2 <nil>
}

// A call that needs approval pauses the run; the next run's resume
// answers it and the loop goes on.
func ExampleWithNeedsApproval() {
	book, _ := loop.NewTool("book", "books a flight", func(ctx context.Context, in cityIn) (string, error) {
		return "booked " + in.City, nil
	})
	model := loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{{ID: "call-1", Name: "book", Args: `{"city":"Oslo"}`}}},
		loop.Turn{Text: "Done."},
	)
	agent, _ := loop.New(model, loop.WithTools(book), loop.WithNeedsApproval(func(c loop.Call) bool { return c.Name == "book" }))
	ctx := context.Background()
	res, _ := agent.Execute(ctx, loop.Input{ThreadID: "t1", Messages: []agui.Message{loop.UserText("Book Oslo")}})
	fmt.Println(res.FinishReason, res.Interrupt.Reason, res.Interrupt.ToolCallID)

	answer := agui.ResumeEntry{InterruptID: res.Interrupt.ID, Status: agui.ResumeResolved, Payload: map[string]any{"approved": true}}
	res, _ = agent.Execute(ctx, loop.Input{ThreadID: "t1", Resume: []agui.ResumeEntry{answer}})
	fmt.Println(res.FinishReason)
	// Output:
	// awaiting-approval tool_approval call-1
	// stop
}

// A bounded in-memory store: at most two threads; the least recently
// saved finished thread makes room for a new one.
func ExampleNewMemoryStore() {
	store := loop.NewMemoryStore(loop.WithMemoryMaxThreads(2), loop.WithMemoryMaxBytes(64<<20), loop.WithMemoryIdleTTL(time.Hour))
	agent, _ := loop.New(loop.Script(loop.Turn{Text: "hi"}), loop.WithCheckpoints(store))
	for _, thread := range []string{"a", "b", "c"} {
		_, _ = agent.Execute(context.Background(), loop.Input{ThreadID: thread, Messages: []agui.Message{loop.UserText("hello")}})
	}
	threads, _ := store.Len()
	_, _, err := store.Load(context.Background(), "a")
	fmt.Println(threads, err)
	// Output: 2 loop: checkpoint not found
}
