package loop_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/loop"
)

// A client built on CopilotKit's useLangGraphInterrupt: the question's
// call ends the run with a CUSTOM on_interrupt event carrying the
// prompt as a JSON string and a plain RUN_FINISHED; the page answers
// with forwardedProps.command.resume on the next run.
func ExampleWithLangGraphInterrupts() {
	type search struct {
		To string `json:"to"`
	}
	type flight struct {
		Airline string `json:"airline"`
	}
	pick, _ := loop.NewQuestion("choose_flight", "Finds flights and lets the user pick one",
		func(ctx context.Context, in search, answer flight) (string, error) {
			return "booked " + answer.Airline + " to " + in.To, nil
		})
	pick, _ = loop.Prompt(pick, func(ctx context.Context, in search) any {
		return map[string]any{"message": "Pick a flight to " + in.To, "options": []flight{{"KLM"}, {"United"}}}
	})
	model := loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{{ID: "call-1", Name: "choose_flight", Args: `{"to":"SFO"}`}}},
		loop.Turn{Text: "Booked."},
	)
	agent, _ := loop.New(model, loop.WithTools(pick), loop.WithLangGraphInterrupts())
	run := func(in *agui.RunAgentInput) {
		for ev, err := range core.Run(context.Background(), core.Agent[core.NoState](agent), in) {
			if err != nil {
				panic(err)
			}
			switch e := ev.(type) {
			case *agui.Custom:
				fmt.Println(e.Name, e.Value)
			case *agui.ToolCallResult:
				fmt.Println("result", e.Content)
			case *agui.RunFinished:
				fmt.Println("finished", e.Outcome == nil || e.Outcome.Type == agui.OutcomeSuccess)
			}
		}
	}
	first := agui.NewInput("t1", "r1")
	first.Messages = []agui.Message{loop.UserText("Fly me to SFO")}
	run(first)

	second := agui.NewInput("t1", "r2")
	second.ForwardedProps = json.RawMessage(`{"command":{"resume":"{\"airline\":\"KLM\"}"}}`)
	run(second)
	// Output:
	// on_interrupt {"message":"Pick a flight to SFO","options":[{"airline":"KLM"},{"airline":"United"}]}
	// finished true
	// result booked KLM to SFO
	// finished true
}
