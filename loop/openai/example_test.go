package openai_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/loop/openai"
	"github.com/openai/openai-go/v3/option"
)

// An agent on an OpenAI-compatible server. The server here replays a
// recorded streamed answer; point option.WithBaseURL at a real one
// instead.
func Example() {
	recorded, err := os.ReadFile(filepath.Join("testdata", "text.sse"))
	if err != nil {
		fmt.Println(err)
		return
	}
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(recorded)
	}))
	defer server.Close()

	p, err := openai.New("gpt-4o-mini", openai.WithClientOptions(
		option.WithBaseURL(server.URL+"/v1"),
		option.WithAPIKey("key"),
		option.WithHTTPClient(server.Client())))
	if err != nil {
		fmt.Println(err)
		return
	}
	agent, err := loop.New(p, loop.WithInstructions("You are a travel assistant."))
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := agent.Execute(context.Background(), loop.Input{Messages: []agui.Message{loop.UserText("Weather in Oslo?")}})
	if err != nil {
		fmt.Println(err)
		return
	}
	last := res.Messages[len(res.Messages)-1].(*agui.AssistantMessage)
	fmt.Println(res.FinishReason, last.Content)
	fmt.Printf("tokens: %d in (%d cached), %d out\n", res.Usage.InputTokens, res.Usage.CachedInputTokens, res.Usage.OutputTokens)
	// Output:
	// stop It is sunny in Oslo.
	// tokens: 58 in (32 cached), 7 out
}
