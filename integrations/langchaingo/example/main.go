// Command example serves a loop agent driven by a langchaingo model on a
// Gin route, POST /agents/langchaingo on 127.0.0.1:8081. The model is
// scripted (it streams an answer word by word and calls the tool once),
// so the example needs no API key; put any langchaingo backend in its
// place, such as ollama.New(ollama.WithModel("llama3.2")).
//
//	cd integrations/langchaingo && go run ./example
package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/tmc/langchaingo/llms"

	"github.com/agui-go/agui/ginagui"
	"github.com/agui-go/agui/integrations/langchaingo"
	"github.com/agui-go/agui/loop"
)

func main() {
	r, err := newRouter()
	if err != nil {
		log.Fatal(err)
	}
	srv := &http.Server{Addr: "127.0.0.1:8081", Handler: r, ReadHeaderTimeout: 10 * time.Second}
	log.Print("POST http://127.0.0.1:8081/agents/langchaingo")
	log.Fatal(srv.ListenAndServe())
}

// newRouter mounts the agent on /agents/langchaingo.
func newRouter() (*gin.Engine, error) {
	p, err := langchaingo.New(scripted{})
	if err != nil {
		return nil, err
	}
	clock, err := loop.NewTool("get_time", "The current time in a city", func(ctx context.Context, in struct {
		City string `json:"city"`
	}) (string, error) {
		return "12:00 in " + in.City, nil
	})
	if err != nil {
		return nil, err
	}
	agent, err := loop.New(p, loop.WithTools(clock))
	if err != nil {
		return nil, err
	}
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	if err := ginagui.Register(r.Group("/agents"), "/langchaingo", agent); err != nil {
		return nil, err
	}
	return r, nil
}

// scripted is a langchaingo model without a backend: on a new question it
// calls get_time, and once the tool's result is in it streams an answer
// word by word through the streaming function, as a real backend does.
// It keeps no state, so it is safe for concurrent use.
type scripted struct{}

func (scripted) GenerateContent(ctx context.Context, msgs []llms.MessageContent, options ...llms.CallOption) (*llms.ContentResponse, error) {
	var o llms.CallOptions
	for _, opt := range options {
		opt(&o)
	}
	last := msgs[len(msgs)-1]
	if last.Role != llms.ChatMessageTypeTool {
		return &llms.ContentResponse{Choices: []*llms.ContentChoice{{
			StopReason: "tool_calls",
			ToolCalls: []llms.ToolCall{{ID: "", Type: "function",
				FunctionCall: &llms.FunctionCall{Name: "get_time", Arguments: `{"city":"Oslo"}`}}},
		}}}, nil
	}
	result := last.Parts[0].(llms.ToolCallResponse).Content
	answer := fmt.Sprintf("It is %s, says the tool.", strings.Trim(result, `"`))
	for _, w := range strings.SplitAfter(answer, " ") {
		if o.StreamingFunc == nil {
			break
		}
		if err := o.StreamingFunc(ctx, []byte(w)); err != nil {
			return nil, err
		}
	}
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: answer, StopReason: "stop"}}}, nil
}

func (scripted) Call(context.Context, string, ...llms.CallOption) (string, error) {
	return "", errors.New("scripted: Call is not supported")
}
