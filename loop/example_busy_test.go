package loop_test

import (
	"context"
	"fmt"
	"sync"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
)

// steerWatch is a store that reports when a steered message reached a
// checkpoint, so that the example's tool finishes only then.
type steerWatch struct {
	loop.Store
	once    sync.Once
	steered chan struct{}
}

func (s *steerWatch) Save(ctx context.Context, cp *loop.Checkpoint, expect int64, kept int) (int64, error) {
	v, err := s.Store.Save(ctx, cp, expect, kept)
	if err == nil && len(cp.Steer) > 0 {
		s.once.Do(func() { close(s.steered) })
	}
	return v, err
}

// A message sent while the answer to the last one still runs is handed
// to that run under BusySteer, through the thread's checkpoint: the run
// reads it once its tool call has its result, before its next model
// turn, and answers it; the second run finishes at once, steered. Two
// agents on one store stand for two replicas.
func ExampleWithBusy() {
	store := &steerWatch{Store: loop.NewMemoryStore(), steered: make(chan struct{})}
	var once sync.Once
	started := make(chan struct{})
	search, err := loop.NewTool("search", "Searches flights",
		func(ctx context.Context, in struct{}) (string, error) {
			once.Do(func() { close(started) })
			<-store.steered
			return "3 flights", nil
		})
	if err != nil {
		panic(err)
	}
	model := loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{{Name: "search", Args: `{}`}}},
		loop.Turn{Text: "3 flights, and yes: window seats."},
	)
	var replicas [2]*loop.Agent
	for i := range replicas {
		if replicas[i], err = loop.New(model, loop.WithTools(search), loop.WithCheckpoints(store),
			loop.WithBusy(loop.BusySteer)); err != nil {
			panic(err)
		}
	}
	ctx := context.Background()
	first := make(chan loop.Result)
	go func() {
		res, err := replicas[0].Execute(ctx, loop.Input{ThreadID: "trip", Messages: []agui.Message{loop.UserText("Flights to Oslo?")}})
		if err != nil {
			panic(err)
		}
		first <- res
	}()
	<-started
	second, err := replicas[1].Execute(ctx, loop.Input{ThreadID: "trip", Messages: []agui.Message{loop.UserText("Window seats, please.")}})
	if err != nil {
		panic(err)
	}
	fmt.Println("second:", second.FinishReason)
	res := <-first
	fmt.Println("first:", res.FinishReason)
	for _, m := range res.Messages {
		switch m := m.(type) {
		case *agui.UserMessage:
			fmt.Println("user:", m.Content.String())
		case *agui.ToolMessage:
			fmt.Println("tool:", m.Content.String())
		case *agui.AssistantMessage:
			if m.Content != "" {
				fmt.Println("assistant:", m.Content)
			}
		}
	}
	// Output:
	// second: steered
	// first: stop
	// user: Flights to Oslo?
	// tool: 3 flights
	// user: Window seats, please.
	// tool: 3 flights
	// assistant: 3 flights, and yes: window seats.
}
