package ginagui_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
)

// exampleRun posts a run to url and prints the type of each event, with
// the text of content deltas.
func exampleRun(url string) {
	body := `{"threadId":"t1","runId":"r1","protocolVersion":"1.0","messages":[{"id":"u1","role":"user","content":"hi"}]}`
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		ev, err := agui.DecodeEvent([]byte(data))
		if err != nil {
			fmt.Println(err)
			return
		}
		if c, ok := ev.(*agui.TextMessageContent); ok {
			fmt.Printf("%s %q\n", ev.Type(), c.Delta)
			continue
		}
		fmt.Println(ev.Type())
	}
}

func ExampleRegister() {
	greeter := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		return agui.Success(), rc.Say("Hello!")
	})

	r := gin.New()
	if err := ginagui.Register(r.Group("/agents"), "/greeter", greeter); err != nil {
		fmt.Println(err)
		return
	}
	srv := httptest.NewServer(r)
	defer srv.Close()

	exampleRun(srv.URL + "/agents/greeter")

	resp, err := http.Get(srv.URL + "/agents/greeter/capabilities")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	caps := bufio.NewScanner(resp.Body)
	caps.Scan()
	fmt.Println(caps.Text())
	// Output:
	// RUN_STARTED
	// TEXT_MESSAGE_START
	// TEXT_MESSAGE_CONTENT "Hello!"
	// TEXT_MESSAGE_END
	// RUN_FINISHED
	// {"transport":{"streaming":true,"httpBinary":true}}
}

func ExampleTransform() {
	// shout upper-cases text deltas; polite appends " please" to them.
	shout := core.Stateless(core.TransformerFunc(func(ev agui.Event, emit func(agui.Event) error) error {
		if c, ok := ev.(*agui.TextMessageContent); ok {
			cp := *c
			cp.Delta = strings.ToUpper(cp.Delta)
			ev = &cp
		}
		return emit(ev)
	}))
	polite := core.Stateless(core.TransformerFunc(func(ev agui.Event, emit func(agui.Event) error) error {
		if c, ok := ev.(*agui.TextMessageContent); ok {
			cp := *c
			cp.Delta += " please"
			ev = &cp
		}
		return emit(ev)
	}))
	echo := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		return agui.Success(), rc.Say("hi")
	})

	r := gin.New()
	// The outer group's transformer sees the events last: polite runs
	// first, then shout upper-cases its output.
	loud := r.Group("/loud", ginagui.Transform(shout))
	if err := ginagui.Register(loud.Group("/polite", ginagui.Transform(polite)), "/echo", echo); err != nil {
		fmt.Println(err)
		return
	}
	srv := httptest.NewServer(r)
	defer srv.Close()

	exampleRun(srv.URL + "/loud/polite/echo")
	// Output:
	// RUN_STARTED
	// TEXT_MESSAGE_START
	// TEXT_MESSAGE_CONTENT "HI PLEASE"
	// TEXT_MESSAGE_END
	// RUN_FINISHED
}
