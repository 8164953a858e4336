package langchaingo_test

import (
	"context"
	"fmt"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/integrations/langchaingo"
	"github.com/agui-go/agui/loop"
	"github.com/tmc/langchaingo/llms/fake"
)

// A langchaingo model (here langchaingo's own fake) drives a loop agent,
// served as an AG-UI run.
func Example() {
	p, err := langchaingo.New(fake.NewFakeLLM([]string{"Hello from langchaingo!"}))
	if err != nil {
		panic(err)
	}
	agent, err := loop.New(p)
	if err != nil {
		panic(err)
	}
	in := agui.NewInput("thread-1", "run-1")
	in.Messages = []agui.Message{loop.UserText("Hi")}
	for ev, err := range core.Run(context.Background(), agent, in) {
		if err != nil {
			panic(err)
		}
		switch ev := ev.(type) {
		case *agui.TextMessageContent:
			fmt.Println("said:", ev.Delta)
		default:
			fmt.Println(ev.Type())
		}
	}
	// Output:
	// RUN_STARTED
	// TEXT_MESSAGE_START
	// said: Hello from langchaingo!
	// TEXT_MESSAGE_END
	// RUN_FINISHED
}
