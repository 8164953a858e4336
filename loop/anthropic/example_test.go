package anthropic_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/loop/anthropic"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
)

// An agent on Claude. The server here replays a recorded streamed answer;
// leave option.WithBaseURL out to talk to the real API.
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

	p, err := anthropic.New("claude-sonnet-5", anthropic.WithClientOptions(
		option.WithBaseURL(server.URL),
		option.WithAPIKey("key"),
		option.WithHTTPClient(server.Client())))
	if err != nil {
		fmt.Println(err)
		return
	}
	agent, err := loop.New(p, loop.WithInstructions("You are a travel assistant."),
		loop.WithModelSettings(loop.ModelSettings{MaxOutputTokens: 512}))
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
	u := res.Usage
	fmt.Printf("tokens: %d in (%d cache read, %d cache write), %d out\n", u.InputTokens, u.CachedInputTokens, u.CacheWriteInputTokens, u.OutputTokens)
	// Output:
	// stop It is sunny in Oslo.
	// tokens: 58 in (21 cache read, 12 cache write), 9 out
}
