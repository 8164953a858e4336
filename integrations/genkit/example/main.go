// Command example serves Genkit on Gin routes of 127.0.0.1:8082 over a
// scripted Genkit model, so it needs no API key:
//
//   - POST /agents/genkit: a genkit.Generate call with two tools, one of
//     which interrupts to ask for a confirmation (resume the run with a
//     payload to answer it);
//   - POST /agents/genkit-loop: the same model driving the loop.
//
// Put a plugin's model in its place, such as googleai/gemini-2.5-flash.
//
//	cd integrations/genkit && go run ./example
package main

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui/ginagui"
	aguigenkit "github.com/agui-go/agui/integrations/genkit"
	"github.com/agui-go/agui/loop"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	r, err := newRouter(ctx)
	if err != nil {
		log.Fatal(err)
	}
	srv := &http.Server{Addr: "127.0.0.1:8082", Handler: r, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	log.Print("POST http://127.0.0.1:8082/agents/genkit and /agents/genkit-loop")
	if err := srv.ListenAndServe(); err != http.ErrServerClosed {
		log.Fatal(err)
	}
}

type trip struct {
	City string `json:"city"`
}

// newRouter mounts both routes; Genkit lives until ctx ends.
func newRouter(ctx context.Context) (*gin.Engine, error) {
	g := genkit.Init(ctx)
	model := genkit.DefineModel(g, "example/scripted", &ai.ModelOptions{Supports: &ai.ModelSupports{Multiturn: true, Tools: true, SystemRole: true}}, scripted)
	weather := genkit.DefineTool(g, "weather", "Current weather in a city", func(tc *ai.ToolContext, in trip) (string, error) {
		return "sunny in " + in.City, nil
	})
	book := genkit.DefineTool(g, "book", "Books a trip, after the user confirms", func(tc *ai.ToolContext, in trip) (string, error) {
		return "", tc.Interrupt(&ai.InterruptOptions{Metadata: map[string]any{"question": "Book a trip to " + in.City + "?"}})
	})
	agent, err := aguigenkit.NewAgent(g, ai.WithModel(model), ai.WithTools(weather, book))
	if err != nil {
		return nil, err
	}
	p, err := aguigenkit.NewProvider(model)
	if err != nil {
		return nil, err
	}
	loopWeather, err := loop.NewTool("weather", "Current weather in a city", func(ctx context.Context, in trip) (string, error) {
		return "sunny in " + in.City, nil
	})
	if err != nil {
		return nil, err
	}
	looped, err := loop.New(p, loop.WithTools(loopWeather))
	if err != nil {
		return nil, err
	}
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	api := r.Group("/agents")
	if err := ginagui.Register(api, "/genkit", agent); err != nil {
		return nil, err
	}
	if err := ginagui.Register(api, "/genkit-loop", looped); err != nil {
		return nil, err
	}
	return r, nil
}

// scripted is the model: on a new question it says so and calls its
// tools (book only when offered); with the tools' results in, it streams
// an answer built from them.
func scripted(ctx context.Context, req *ai.ModelRequest, cb ai.ModelStreamCallback) (*ai.ModelResponse, error) {
	last := req.Messages[len(req.Messages)-1]
	if last.Role != ai.RoleTool {
		parts := []*ai.Part{ai.NewTextPart("Let me look into Oslo."),
			ai.NewToolRequestPart(&ai.ToolRequest{Name: "weather", Input: map[string]any{"city": "Oslo"}})}
		for _, t := range req.Tools {
			if t.Name == "book" {
				parts = append(parts, ai.NewToolRequestPart(&ai.ToolRequest{Name: "book", Input: map[string]any{"city": "Oslo"}}))
			}
		}
		if cb != nil {
			if err := cb(ctx, &ai.ModelResponseChunk{Content: parts[:1]}); err != nil {
				return nil, err
			}
		}
		return &ai.ModelResponse{Message: ai.NewModelMessage(parts...), FinishReason: ai.FinishReasonStop}, nil
	}
	var results []string
	for _, p := range last.Content {
		if p.IsToolResponse() {
			results = append(results, fmt.Sprintf("%s: %v", p.ToolResponse.Name, p.ToolResponse.Output))
		}
	}
	slices.Sort(results) // Genkit gathers resumed responses in completion order
	answer := "Done. " + strings.Join(results, "; ") + "."
	if cb != nil {
		for _, w := range strings.SplitAfter(answer, " ") {
			if err := cb(ctx, &ai.ModelResponseChunk{Content: []*ai.Part{ai.NewTextPart(w)}}); err != nil {
				return nil, err
			}
		}
	}
	return &ai.ModelResponse{Message: ai.NewModelMessage(ai.NewTextPart(answer)), FinishReason: ai.FinishReasonStop}, nil
}
