package loop_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
)

// A background tool answers its call at once and works on; the client
// follows the work as an activity while the run lasts, and the thread's
// next run, here on a second replica sharing the store, starts with the
// result, for the page (MESSAGES_SNAPSHOT) and the model (a system
// message).
func ExampleNewBackgroundTool() {
	bg, _ := loop.NewBackground(loop.WithMaxTasks(4))
	release := make(chan struct{})
	research, _ := loop.NewBackgroundTool(bg, "research", "Researches a topic in the background",
		func(ctx context.Context, in struct {
			Topic string `json:"topic"`
		}) (string, error) {
			_ = loop.TaskOutput(ctx, "reading sources")
			select {
			case <-release:
				return "three findings on " + in.Topic, nil
			case <-ctx.Done():
				return "", ctx.Err()
			}
		})
	store := loop.NewMemoryStore() // loop/redisstore between processes
	replicaA, _ := loop.New(loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{{ID: "call-1", Name: "research", Args: `{"topic":"Go"}`}}},
		loop.Turn{Text: "I started the research."},
	), loop.WithTools(research), loop.WithCheckpoints(store))
	replicaB, _ := loop.New(loop.Script(loop.Turn{Text: "It found three things."}),
		loop.WithTools(research), loop.WithCheckpoints(store))
	show := func(ev agui.Event) error {
		switch e := ev.(type) {
		case *agui.ActivitySnapshot:
			fmt.Println("activity", e.Content["toolName"], e.Content["status"], e.Content["args"])
		case *agui.ToolCallResult:
			var d loop.Dispatched
			_ = json.Unmarshal([]byte(e.Content.String()), &d)
			fmt.Println("the model reads: task", d.Status)
		case *agui.MessagesSnapshot:
			for _, m := range e.Messages {
				switch m := m.(type) {
				case *agui.ActivityMessage:
					fmt.Println("snapshot: activity", m.Content["status"], m.Content["result"])
				case *agui.SystemMessage:
					fmt.Println("snapshot: system message for the model")
				}
			}
		}
		return nil
	}
	ctx := context.Background()
	res, _ := replicaA.Execute(ctx, loop.Input{ThreadID: "t1", Messages: []agui.Message{loop.UserText("Research Go")}, OnEvent: show})
	fmt.Println(res.FinishReason, bg.Len(), "task")

	close(release)
	_ = bg.Shutdown(ctx) // waits for the task and the delivery of its result
	res, _ = replicaB.Execute(ctx, loop.Input{ThreadID: "t1", Messages: []agui.Message{loop.UserText("What did it find?")}, OnEvent: show})
	fmt.Println(res.FinishReason, res.Messages[len(res.Messages)-1].(*agui.AssistantMessage).Content)
	// Output:
	// activity research running map[topic:Go]
	// the model reads: task running
	// stop 1 task
	// snapshot: activity completed three findings on Go
	// snapshot: system message for the model
	// stop It found three things.
}
