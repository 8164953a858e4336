package loop_test

import (
	"context"
	"fmt"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
)

// A tool that hangs gets a timeout result the model reads, and the run
// goes on.
func ExampleWithToolTimeout() {
	hang, err := loop.NewTool("lookup", "Looks something up", func(ctx context.Context, in cityIn) (string, error) {
		<-ctx.Done() // a backend that never answers
		return "", ctx.Err()
	})
	if err != nil {
		panic(err)
	}
	model := loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{{ID: "call-1", Name: "lookup", Args: `{"city":"Oslo"}`}}},
		loop.Turn{Text: "The lookup timed out."},
	)
	agent, err := loop.New(model, loop.WithTools(hang), loop.WithToolTimeout(20*time.Millisecond))
	if err != nil {
		panic(err)
	}
	res, err := agent.Execute(context.Background(), loop.Input{Messages: []agui.Message{loop.UserText("Oslo?")}})
	if err != nil {
		panic(err)
	}
	for _, m := range res.Messages {
		if tm, ok := m.(*agui.ToolMessage); ok {
			fmt.Println(tm.Content.String())
		}
	}
	fmt.Println(res.FinishReason)
	// Output:
	// {"error":"timeout","message":"timeout: the tool did not finish within 20ms"}
	// stop
}
