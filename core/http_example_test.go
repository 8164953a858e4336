package core_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

func ExampleNewHandler() {
	greeter := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		return agui.Success(), rc.Say("Hello!")
	})
	var gate core.Gate // shut down next to http.Server.Shutdown
	h, err := core.NewHandler(greeter, core.WithGate(&gate))
	if err != nil {
		fmt.Println(err)
		return
	}
	mux := http.NewServeMux()
	mux.Handle("POST /agents/greeter", h)
	srv := httptest.NewServer(mux)
	defer srv.Close()

	body := `{"threadId":"t1","runId":"r1","protocolVersion":"1.0","messages":[]}`
	resp, err := http.Post(srv.URL+"/agents/greeter", "application/json", strings.NewReader(body))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	fmt.Println(resp.Header.Get("Content-Type"))
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			ev, _ := agui.DecodeEvent([]byte(data))
			fmt.Println(ev.Type())
		}
	}
	// Output:
	// text/event-stream
	// RUN_STARTED
	// TEXT_MESSAGE_START
	// TEXT_MESSAGE_CONTENT
	// TEXT_MESSAGE_END
	// RUN_FINISHED
}
