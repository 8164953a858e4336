package loop_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/loop"
)

// The thread API beside an agent's route: WithTitles names a thread after
// its first exchange, and ThreadsHandler lists the caller's threads,
// renames and deletes them.
func ExampleThreadsHandler() {
	agent, err := loop.New(loop.Script(
		loop.Turn{Text: "Oslo is lovely in May."},
		loop.Turn{Text: "Trip to Oslo"}, // the naming call's answer
	), loop.WithTitles(10*time.Second))
	if err != nil {
		panic(err)
	}
	ctx := core.ContextWithPrincipal(context.Background(), "alice")
	if _, err := agent.Execute(ctx, loop.Input{ThreadID: "t1", Messages: []agui.Message{loop.UserText("Plan a trip to Oslo")}}); err != nil {
		panic(err)
	}
	principal := core.PrincipalFunc(func(r *http.Request) (string, error) { return r.Header.Get("X-User"), nil })
	threads := loop.ThreadsHandler(agent, principal)
	mux := http.NewServeMux()
	mux.Handle("/agents/travel/threads", threads)
	mux.Handle("/agents/travel/threads/", threads)
	srv := httptest.NewServer(mux)
	defer srv.Close()

	do := func(method, path, body string) *http.Response {
		req, _ := http.NewRequest(method, srv.URL+"/agents/travel/threads"+path, strings.NewReader(body))
		req.Header.Set("X-User", "alice")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			panic(err)
		}
		return resp
	}
	list := func() {
		resp := do(http.MethodGet, "?limit=20", "")
		defer resp.Body.Close()
		var page loop.ThreadPage
		_ = json.NewDecoder(resp.Body).Decode(&page)
		for _, t := range page.Threads {
			fmt.Printf("%s %q, %d messages\n", t.ID, t.Title, t.Messages)
		}
		fmt.Println(len(page.Threads), "threads")
	}
	list()
	do(http.MethodPatch, "/t1", `{"title":"Oslo in May"}`).Body.Close()
	list()
	resp := do(http.MethodDelete, "/t1", "")
	resp.Body.Close()
	fmt.Println(resp.StatusCode)
	list()
	// Output:
	// t1 "Trip to Oslo", 2 messages
	// 1 threads
	// t1 "Oslo in May", 2 messages
	// 1 threads
	// 204
	// 0 threads
}
