package client_test

import (
	"context"
	"fmt"
	"net/http/httptest"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/client"
	"github.com/agui-go/agui/core"
)

type counter struct {
	Count int `json:"count"`
}

// A Go program runs a remote agent and prints its final messages and
// state. The agent here is served from core.NewHandler in an httptest
// server; any AG-UI agent at a URL does.
func ExampleAgent_Run() {
	remote := core.AgentFunc[counter](func(ctx context.Context, rc *core.RunContext[counter]) (agui.Outcome, error) {
		if err := rc.UpdateState(func(s *counter) { s.Count++ }); err != nil {
			return agui.Outcome{}, err
		}
		return agui.Success(), rc.Say("Counted.")
	})
	h, err := core.NewHandler(remote)
	if err != nil {
		fmt.Println(err)
		return
	}
	srv := httptest.NewServer(h)
	defer srv.Close()

	agent, err := client.New(srv.URL)
	if err != nil {
		fmt.Println(err)
		return
	}
	in := agui.NewInput("thread-1", "run-1")
	in.Messages = []agui.Message{&agui.UserMessage{ID: "u1", Content: agui.TextContent("Count, please.")}}
	view, err := agent.Run(context.Background(), in)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range view.Messages {
		fmt.Printf("%s: %v\n", m.Role(), text(m))
	}
	state, err := client.State[counter](view)
	fmt.Println("count:", state.Count, err, "outcome:", view.Outcome().Type)
	// Output:
	// user: Count, please.
	// assistant: Counted.
	// count: 1 <nil> outcome: success
}

func text(m agui.Message) string {
	switch m := m.(type) {
	case *agui.UserMessage:
		return m.Content.String()
	case *agui.AssistantMessage:
		return m.Content
	}
	return ""
}

// Events yields each event as it arrives, with the view already updated.
func ExampleAgent_Events() {
	remote := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		return agui.Success(), rc.Say("Hello!")
	})
	h, err := core.NewHandler(remote)
	if err != nil {
		fmt.Println(err)
		return
	}
	srv := httptest.NewServer(h)
	defer srv.Close()

	agent, err := client.New(srv.URL)
	if err != nil {
		fmt.Println(err)
		return
	}
	in := agui.NewInput("thread-1", "run-1")
	view, err := client.NewView(in)
	if err != nil {
		fmt.Println(err)
		return
	}
	for ev, err := range agent.Events(context.Background(), in, view) {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(ev.Type(), len(view.Messages))
	}
	// Output:
	// RUN_STARTED 0
	// TEXT_MESSAGE_START 1
	// TEXT_MESSAGE_CONTENT 1
	// TEXT_MESSAGE_END 1
	// RUN_FINISHED 1
}
