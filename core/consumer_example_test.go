package core_test

import (
	"context"
	"fmt"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// A transport drives a run with its Consumer: it waits on Ready (here
// alone; a real one selects over its own channels too), takes what is
// queued, and closes the Consumer on every path.
func ExampleRunner_Start() {
	greeter := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		return agui.Success(), rc.Say("Hello!")
	})
	run, err := core.NewRunner(greeter, agui.NewInput("thread-1", "run-1"))
	if err != nil {
		fmt.Println(err)
		return
	}
	// deliver prints each event and keeps none, so the run may reuse them.
	deliver := func(ev agui.Event) bool {
		fmt.Println(ev.Type())
		return true
	}
	c, err := run.Start(context.Background(), deliver, core.DeliverKeepsNothing())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	for ready := c.Ready(); ready != nil; ready = c.Ready() {
		<-ready
		c.Take()
	}
	// Output:
	// RUN_STARTED
	// TEXT_MESSAGE_START
	// TEXT_MESSAGE_CONTENT
	// TEXT_MESSAGE_END
	// RUN_FINISHED
}
