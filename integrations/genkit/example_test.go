package genkit_test

import (
	"context"
	"fmt"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	aguigenkit "github.com/agui-go/agui/integrations/genkit"
	"github.com/agui-go/agui/loop"
	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
)

// echoModel defines a Genkit model that streams "You said: " and the
// user's last text.
func echoModel(g *genkit.Genkit) ai.Model {
	return genkit.DefineModel(g, "example/echo", &ai.ModelOptions{Supports: &ai.ModelSupports{Multiturn: true, Tools: true}},
		func(ctx context.Context, req *ai.ModelRequest, cb ai.ModelStreamCallback) (*ai.ModelResponse, error) {
			text := "You said: " + req.Messages[len(req.Messages)-1].Text()
			if cb != nil {
				if err := cb(ctx, &ai.ModelResponseChunk{Content: []*ai.Part{ai.NewTextPart(text)}}); err != nil {
					return nil, err
				}
			}
			return &ai.ModelResponse{Message: ai.NewModelMessage(ai.NewTextPart(text)), FinishReason: ai.FinishReasonStop}, nil
		})
}

// show runs agent on one user message and prints its events.
func show(agent core.Agent[core.NoState]) {
	in := agui.NewInput("thread-1", "run-1")
	in.Messages = []agui.Message{&agui.UserMessage{ID: "u1", Content: agui.TextContent("hello")}}
	for ev, err := range core.Run(context.Background(), agent, in) {
		if err != nil {
			panic(err)
		}
		if c, ok := ev.(*agui.TextMessageContent); ok {
			fmt.Println("said:", c.Delta)
			continue
		}
		fmt.Println(ev.Type())
	}
}

// A genkit.Generate call served as an AG-UI agent.
func ExampleNewAgent() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel() // ends the signal watcher genkit.Init starts
	g := genkit.Init(ctx)
	agent, err := aguigenkit.NewAgent(g, ai.WithModel(echoModel(g)))
	if err != nil {
		panic(err)
	}
	show(agent)
	// Output:
	// RUN_STARTED
	// TEXT_MESSAGE_START
	// said: You said: hello
	// TEXT_MESSAGE_END
	// RUN_FINISHED
}

// A Genkit model as the loop's model provider.
func ExampleNewProvider() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	g := genkit.Init(ctx)
	p, err := aguigenkit.NewProvider(echoModel(g))
	if err != nil {
		panic(err)
	}
	agent, err := loop.New(p)
	if err != nil {
		panic(err)
	}
	show(agent)
	// Output:
	// RUN_STARTED
	// TEXT_MESSAGE_START
	// said: You said: hello
	// TEXT_MESSAGE_END
	// RUN_FINISHED
}
