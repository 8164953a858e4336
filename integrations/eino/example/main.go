// Command example serves an eino ADK agent and a loop agent on an eino
// model from Gin, on a scripted model so that it needs no API key:
//
//	cd integrations/eino && go run ./example
//	curl -N -H 'Content-Type: application/json' http://127.0.0.1:8081/agents/eino \
//	  -d '{"threadId":"t1","runId":"r1","messages":[{"id":"u1","role":"user","content":"Weather in Paris?"}]}'
//
// POST /agents/eino is a ChatModelAgent with a weather tool and a booking
// tool that asks for approval (an AG-UI interrupt, resumed from an
// in-memory checkpoint store); POST /agents/eino-resumable serves the same
// agent on a resumable route; POST /agents/eino-loop is our loop on the
// same model through eino.NewProvider.
package main

import (
	"context"
	"errors"
	"flag"
	"log"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
	"github.com/agui-go/agui/integrations/eino"
	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/resume"
	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"
	"github.com/cloudwego/eino/compose"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8081", "address to listen on")
	flag.Parse()
	gate := new(core.Gate)
	r, closeRuns, err := router(context.Background(), gate)
	if err != nil {
		log.Fatal(err)
	}
	srv := &http.Server{Addr: *addr, Handler: r, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.ListenAndServe() }()
	log.Printf("serving on http://%s/agents/eino, /agents/eino-resumable and /agents/eino-loop", *addr)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	select {
	case err := <-served:
		log.Fatal(err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := core.Shutdown(shutdown, srv, gate); err != nil {
		log.Fatal(err)
	}
	if err := closeRuns(shutdown); err != nil {
		log.Fatal(err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		log.Fatal(err)
	}
}

// router mounts the agents; closeRuns ends the resumable route's runs
// after the gate's shutdown.
func router(ctx context.Context, gate *core.Gate) (r *gin.Engine, closeRuns func(context.Context) error, err error) {
	weather, err := utils.InferTool("get_weather", "Current weather in a city", func(ctx context.Context, in struct {
		City string `json:"city"`
	}) (string, error) {
		adk.AddSessionValue(ctx, "lastCity", in.City)
		return "sunny and 21°C in " + in.City, nil
	})
	if err != nil {
		return nil, nil, err
	}
	book, err := utils.InferTool("book_flight", "Book a flight to a city; the user approves it first", func(ctx context.Context, in struct {
		City string `json:"city"`
	}) (string, error) {
		isTarget, hasAnswer, answer := tool.GetResumeContext[agui.ResumeEntry](ctx)
		if !isTarget || !hasAnswer {
			return "", tool.Interrupt(ctx, "Book the flight to "+in.City+"?")
		}
		if answer.Status != agui.ResumeResolved {
			return "the flight to " + in.City + " was not booked", nil
		}
		return "the flight to " + in.City + " is booked", nil
	})
	if err != nil {
		return nil, nil, err
	}
	chat, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
		Name:        "travel",
		Description: "Weather and flights",
		Instruction: "You help with travel.",
		Model:       scripted{},
		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{Tools: []tool.BaseTool{weather, book}}},
	})
	if err != nil {
		return nil, nil, err
	}
	store, err := eino.NewCheckPointStore(new(eino.MemoryKV))
	if err != nil {
		return nil, nil, err
	}
	agent, err := eino.NewAgent(chat, eino.WithCheckPointStore(store))
	if err != nil {
		return nil, nil, err
	}

	p, err := eino.NewProvider(scripted{})
	if err != nil {
		return nil, nil, err
	}
	loopWeather, err := loop.NewTool("get_weather", "Current weather in a city", func(ctx context.Context, in struct {
		City string `json:"city"`
	}) (string, error) {
		return "sunny and 21°C in " + in.City, nil
	})
	if err != nil {
		return nil, nil, err
	}
	looped, err := loop.New(p, loop.WithTools(loopWeather))
	if err != nil {
		return nil, nil, err
	}

	// The same eino agent on a resumable route: a client that loses its
	// connection rejoins the run with Last-Event-ID and misses nothing.
	h, err := core.NewHandler(agent, core.WithGate(gate), core.WithAgentName("eino-resumable"))
	if err != nil {
		return nil, nil, err
	}
	lg, err := resume.NewMemoryLog()
	if err != nil {
		return nil, nil, err
	}
	rh, err := resume.New(h, lg, resume.WithDetach(time.Minute))
	if err != nil {
		return nil, nil, err
	}

	r = gin.New()
	if err := ginagui.Register(r, "/agents/eino", agent, core.WithGate(gate), core.WithAgentName("eino")); err != nil {
		return nil, nil, err
	}
	if err := ginagui.Register(r, "/agents/eino-loop", looped, core.WithGate(gate), core.WithAgentName("eino-loop")); err != nil {
		return nil, nil, err
	}
	if err := ginagui.RegisterResumable(r, "/agents/eino-resumable", rh); err != nil {
		return nil, nil, err
	}
	return r, func(ctx context.Context) error { return errors.Join(rh.Close(ctx), lg.Close()) }, nil
}
