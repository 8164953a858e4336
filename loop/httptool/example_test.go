package httptool_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/loop/httptool"
)

// A scripted model fetches a page with the HTTP tool. The test server runs
// on loopback, which the tool refuses unless allowed.
func ExampleNew() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = io.WriteString(w, "hello from "+r.URL.Path)
	}))
	defer srv.Close()

	fetch, err := httptool.New(httptool.WithAllow("127.0.0.1"), httptool.WithMaxBodyBytes(1024))
	if err != nil {
		panic(err)
	}
	model := loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{{ID: "call-1", Name: "http_request", Args: `{"url":"` + srv.URL + `/greeting"}`}}},
		loop.Turn{Text: "The page says hello."},
	)
	agent, err := loop.New(model, loop.WithTools(fetch))
	if err != nil {
		panic(err)
	}
	res, err := agent.Execute(context.Background(), loop.Input{Messages: []agui.Message{loop.UserText("Fetch the greeting")}})
	if err != nil {
		panic(err)
	}
	for _, m := range res.Messages {
		if tm, ok := m.(*agui.ToolMessage); ok {
			var out httptool.Response
			if err := json.Unmarshal([]byte(tm.Content.String()), &out); err != nil {
				panic(err)
			}
			fmt.Println(out.Status, out.Headers["Content-Type"], out.Body)
		}
	}
	// Output:
	// 200 text/plain hello from /greeting
}

// Without Allow, a loopback address is refused before any connection is
// made; the model sees the refusal as the call's error result.
func ExampleNew_refused() {
	fetch, err := httptool.New()
	if err != nil {
		panic(err)
	}
	model := loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{{ID: "call-1", Name: "http_request", Args: `{"url":"http://169.254.169.254/latest/meta-data/"}`}}},
		loop.Turn{Text: "I cannot reach that."},
	)
	agent, err := loop.New(model, loop.WithTools(fetch))
	if err != nil {
		panic(err)
	}
	res, err := agent.Execute(context.Background(), loop.Input{Messages: []agui.Message{loop.UserText("Read the metadata")}})
	if err != nil {
		panic(err)
	}
	tm := res.Messages[2].(*agui.ToolMessage)
	fmt.Println(tm.Error)
	// Output:
	// HTTP_ADDRESS_BLOCKED: refused to connect to 169.254.169.254 (metadata address)
}
