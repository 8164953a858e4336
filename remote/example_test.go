package remote_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/client"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/remote"
)

// A route of ours serves an agent that runs elsewhere: here a greeter on
// another server, which could be written in Python or TypeScript. A Go
// client talks to our route and gets the remote's messages.
func ExampleNew() {
	greeter := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		return agui.Success(), rc.Say("Hello from elsewhere!")
	})
	elsewhere, _ := core.NewHandler(greeter)
	remoteSrv := httptest.NewServer(elsewhere)
	defer remoteSrv.Close()

	c, err := client.New(remoteSrv.URL)
	if err != nil {
		panic(err)
	}
	proxy, err := remote.New(c)
	if err != nil {
		panic(err)
	}
	h, err := core.NewHandler(proxy) // our authentication, limits and the rest go here
	if err != nil {
		panic(err)
	}
	mux := http.NewServeMux()
	mux.Handle("POST /agents/greeter", h)
	srv := httptest.NewServer(mux)
	defer srv.Close()

	ours, err := client.New(srv.URL + "/agents/greeter")
	if err != nil {
		panic(err)
	}
	view, err := ours.Run(context.Background(), agui.NewInput("thread-1", "run-1"))
	if err != nil {
		panic(err)
	}
	for _, m := range view.Messages {
		fmt.Println(m.(*agui.AssistantMessage).Content)
	}
	fmt.Println(view.Outcome().Type)
	// Output:
	// Hello from elsewhere!
	// success
}
