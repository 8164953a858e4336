package resume_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/resume"
)

func ExampleNew() {
	greeter := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		return agui.Success(), rc.Say("Hello!")
	})
	h, err := core.NewHandler(greeter)
	if err != nil {
		fmt.Println(err)
		return
	}
	lg, err := resume.NewMemoryLog()
	if err != nil {
		fmt.Println(err)
		return
	}
	// Runs survive their connection for 30 s.
	rh, err := resume.New(h, lg, resume.WithDetach(30*time.Second))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rh.Close(context.Background())
	mux := http.NewServeMux()
	mux.Handle("POST /agents/greeter", rh)
	mux.Handle("GET /agents/greeter/runs/{runId}", rh)
	mux.Handle("DELETE /agents/greeter/runs/{runId}", rh)
	mux.Handle("GET /agents/greeter/threads/{threadId}/run", rh)
	srv := httptest.NewServer(mux)
	defer srv.Close()

	body := `{"threadId":"t1","runId":"r1","protocolVersion":"1.0","messages":[]}`
	resp, err := http.Post(srv.URL+"/agents/greeter", "application/json", strings.NewReader(body))
	if err != nil {
		fmt.Println(err)
		return
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	run := resp.Header.Get("Content-Location")
	fmt.Println(run)

	// A client that saw events up to id 3 rejoins after it.
	req, _ := http.NewRequest(http.MethodGet, srv.URL+run, nil)
	req.Header.Set("Last-Event-ID", "3")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	rest, _ := io.ReadAll(resp.Body)
	for _, line := range strings.Split(string(rest), "\n") {
		if strings.HasPrefix(line, "id: ") || strings.HasPrefix(line, "data: ") {
			fmt.Println(line[:min(len(line), 40)])
		}
	}
	// Output:
	// /agents/greeter/runs/r1
	// id: 4
	// data: {"type":"TEXT_MESSAGE_END","messag
	// id: 5
	// data: {"type":"RUN_FINISHED","threadId":
}
