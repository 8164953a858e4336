package loop_test

import (
	"context"
	"fmt"
	"iter"
	"strings"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
)

// Observational memory: once the thread's older messages pass the
// threshold, a cycle compresses them into observations, shown to the
// client as an activity, and the model reads the observations in their
// place.
func ExampleNewObserver() {
	observerModel := loop.Script(loop.Turn{Text: "The user is vegetarian and plans a trip to Japan."})
	observer, _ := loop.NewObserver(observerModel, loop.WithObserveTokens(10))
	chat := loop.ProviderFunc(func(ctx context.Context, req loop.ModelRequest) iter.Seq2[loop.Delta, error] {
		first := req.Messages[0]
		if s, ok := first.(*agui.SystemMessage); ok {
			first = loop.UserText(strings.SplitN(s.Content, "\n", 2)[1]) // what the model recalls
		}
		return loop.Script(loop.Turn{Text: "I recall: " + first.(*agui.UserMessage).Content.String()}).Stream(ctx, req)
	})
	agent, _ := loop.New(chat, loop.WithObserver(observer))
	show := func(ev agui.Event) error {
		switch e := ev.(type) {
		case *agui.ActivitySnapshot:
			fmt.Println("activity", e.ActivityType, e.Content["status"])
		case *agui.ActivityDelta:
			for _, op := range e.Patch {
				if op.Path == "/status" {
					fmt.Println("activity", e.ActivityType, op.Value)
				}
			}
		}
		return nil
	}
	ctx := context.Background()
	res, _ := agent.Execute(ctx, loop.Input{ThreadID: "t1", Messages: []agui.Message{loop.UserText("I am vegetarian and I am planning two weeks in Japan in spring.")}, OnEvent: show})
	fmt.Println(res.Messages[len(res.Messages)-1].(*agui.AssistantMessage).Content)
	res, _ = agent.Execute(ctx, loop.Input{ThreadID: "t1", Messages: []agui.Message{loop.UserText("Where should I eat?")}, OnEvent: show})
	fmt.Println(res.Messages[len(res.Messages)-1].(*agui.AssistantMessage).Content)
	// Output:
	// I recall: I am vegetarian and I am planning two weeks in Japan in spring.
	// activity observational-memory running
	// activity observational-memory completed
	// activity observational-memory activated
	// I recall: The user is vegetarian and plans a trip to Japan.
}
