package core_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// A plain net/http server with one agent route, shut down while a run is
// streaming: the client gets a terminal RUN_ERROR (CANCELLED), and the
// server stops without waiting for the stream, which http.Server.Shutdown
// alone would.
func ExampleShutdown() {
	working := make(chan struct{})
	worker := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		if err := rc.Say("working"); err != nil {
			return agui.Outcome{}, err
		}
		close(working)
		<-ctx.Done() // until the server shuts down
		return agui.Outcome{}, context.Cause(ctx)
	})
	var gate core.Gate // shared by every agent route of the server
	h, err := core.NewHandler(worker, core.WithGate(&gate))
	if err != nil {
		fmt.Println(err)
		return
	}
	mux := http.NewServeMux()
	mux.Handle("POST /agents/worker", h)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println(err)
		return
	}
	srv := &http.Server{Handler: mux}
	go func() { _ = srv.Serve(ln) }()
	defer http.DefaultClient.CloseIdleConnections()

	body := `{"threadId":"t1","runId":"r1","protocolVersion":"1.0","messages":[]}`
	resp, err := http.Post("http://"+ln.Addr().String()+"/agents/worker", "application/json", strings.NewReader(body))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	last := make(chan agui.Event, 1)
	go func() {
		var ev agui.Event
		for e, err := range agui.ReadSSE(resp.Body) {
			if err != nil {
				break
			}
			ev = e
		}
		last <- ev
	}()
	<-working

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	fmt.Println("shutdown:", core.Shutdown(ctx, srv, &gate))
	if re, ok := (<-last).(*agui.RunError); ok {
		fmt.Println("the client's last event:", re.Type(), re.Code)
	}
	// Output:
	// shutdown: <nil>
	// the client's last event: RUN_ERROR CANCELLED
}
