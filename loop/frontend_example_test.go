package loop_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/loop"
)

// The model calls a tool the client offered: the run ends for the client,
// which runs the tool and brings its result with the next run.
func ExampleInput_tools() {
	model := loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{{ID: "call-1", Name: "set_theme", Args: `{"color":"teal"}`}}},
		loop.Turn{Text: "The page is teal now."},
	)
	agent, _ := loop.New(model)
	theme := agui.Tool{Name: "set_theme", Parameters: json.RawMessage(`{"type":"object","properties":{"color":{"type":"string"}}}`)}
	ctx := context.Background()
	res, _ := agent.Execute(ctx, loop.Input{ThreadID: "t1", Tools: []agui.Tool{theme}, Messages: []agui.Message{loop.UserText("Make it teal")}})
	fmt.Println(res.FinishReason)

	result := &agui.ToolMessage{ID: "r1", ToolCallID: "call-1", Content: agui.TextContent("done")}
	res, _ = agent.Execute(ctx, loop.Input{ThreadID: "t1", Tools: []agui.Tool{theme}, Messages: []agui.Message{result}})
	fmt.Println(res.FinishReason, res.Messages[len(res.Messages)-1].(*agui.AssistantMessage).Content)
	// Output:
	// awaiting-client
	// stop The page is teal now.
}

type board struct {
	Color string `json:"color"`
}

// A loop agent over shared state: its tool changes the state through its
// context, and the client gets the change as a state event.
func ExampleNewTyped() {
	paint, _ := loop.NewTool("paint", "paints the board", func(ctx context.Context, in board) (string, error) {
		call, _ := loop.CallFrom(ctx)
		return "painted by " + call.ID, loop.UpdateState(ctx, func(s *board) { s.Color = in.Color })
	})
	model := loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{{ID: "call-1", Name: "paint", Args: `{"color":"red"}`}}},
		loop.Turn{Text: "Red it is."},
	)
	agent, _ := loop.NewTyped[board](model, loop.WithTools(paint))
	in := agui.NewInput("t1", "r1")
	in.Messages = []agui.Message{loop.UserText("Paint it red")}
	in.State = json.RawMessage(`{"color":"white"}`)
	for ev, err := range core.Run(context.Background(), core.Agent[board](agent), in) {
		if err != nil {
			panic(err)
		}
		switch e := ev.(type) {
		case *agui.StateSnapshot:
			b, _ := json.Marshal(e.Snapshot)
			fmt.Println("state", string(b))
		case *agui.ToolCallResult:
			fmt.Println("result", e.Content)
		}
	}
	// Output:
	// state {"color":"red"}
	// result painted by call-1
}
