package eino_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/integrations/eino"
	"github.com/agui-go/agui/loop"
	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"
	"github.com/cloudwego/eino/compose"
)

// An eino chat model drives a loop agent. eino.NewFakeModel is this
// package's test model; any eino-ext model (openai.NewChatModel,
// ark.NewChatModel, claude.NewChatModel…) takes its place.
func ExampleNewProvider() {
	model := eino.NewFakeModel(eino.TextTurn("Hello ", "from eino."))
	p, err := eino.NewProvider(model)
	if err != nil {
		fmt.Println(err)
		return
	}
	agent, err := loop.New(p, loop.WithInstructions("Be brief."))
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := agent.Execute(context.Background(), loop.Input{Messages: []agui.Message{loop.UserText("Hi!")}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Messages[len(res.Messages)-1].(*agui.AssistantMessage).Content)
	// Output:
	// Hello from eino.
}

// An eino ChatModelAgent with a tool, served as a core.Agent: its
// streamed answer, tool call and tool result become AG-UI events.
// Register it on a Gin route with ginagui.Register(r, "/agents/weather",
// agent) instead of running it directly as here.
func ExampleNewAgent() {
	ctx := context.Background()
	weather, err := utils.InferTool("get_weather", "Current weather", func(ctx context.Context, in struct {
		City string `json:"city"`
	}) (string, error) {
		return "sunny in " + in.City, nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	chat, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
		Name: "weather", Description: "Answers weather questions", Instruction: "Be brief.",
		Model: eino.NewFakeModel(
			eino.CallTurn("call_1", "get_weather", `{"city":"Oslo"}`),
			eino.TextTurn("Sunny ", "in Oslo.")),
		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{Tools: []tool.BaseTool{weather}}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	agent, err := eino.NewAgent(chat)
	if err != nil {
		fmt.Println(err)
		return
	}
	in := agui.NewInput("thread-1", "run-1")
	in.Messages = []agui.Message{&agui.UserMessage{ID: "u1", Content: agui.TextContent("Weather in Oslo?")}}
	for ev, err := range core.Run(ctx, agent, in) {
		if err != nil {
			fmt.Println(err)
			return
		}
		switch ev := ev.(type) {
		case *agui.TextMessageContent:
			fmt.Printf("%s %q\n", ev.Type(), ev.Delta)
		case *agui.ToolCallResult:
			fmt.Printf("%s %s %q\n", ev.Type(), ev.ToolCallID, ev.Content.String())
		default:
			fmt.Println(ev.Type())
		}
	}
	// Output:
	// RUN_STARTED
	// TOOL_CALL_START
	// TOOL_CALL_ARGS
	// TOOL_CALL_END
	// TOOL_CALL_RESULT call_1 "sunny in Oslo"
	// TEXT_MESSAGE_START
	// TEXT_MESSAGE_CONTENT "Sunny "
	// TEXT_MESSAGE_CONTENT "in Oslo."
	// TEXT_MESSAGE_END
	// RUN_FINISHED
}

// mapKV is a KV on a map. A Redis one is as short:
//
//	func (r redisKV) Get(ctx context.Context, key string) ([]byte, bool, error) {
//		b, err := r.c.Get(ctx, key).Bytes()
//		if errors.Is(err, redis.Nil) {
//			return nil, false, nil
//		}
//		return b, err == nil, err
//	}
//
//	func (r redisKV) Set(ctx context.Context, key string, v []byte, ttl time.Duration) error {
//		return r.c.Set(ctx, key, v, ttl).Err()
//	}
type mapKV struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (k *mapKV) Get(_ context.Context, key string) ([]byte, bool, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	v, ok := k.m[key]
	return v, ok, nil
}

func (k *mapKV) Set(_ context.Context, key string, v []byte, _ time.Duration) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.m[key] = v
	return nil
}

// A tool that needs the user's approval interrupts; the run ends with an
// AG-UI interrupt, and the thread's next run, whose resume answers it,
// continues the eino run from its checkpoint. The tool reads the answer
// as an agui.ResumeEntry.
func ExampleNewCheckPointStore() {
	ctx := context.Background()
	book, err := utils.InferTool("book_flight", "Book a flight", func(ctx context.Context, in struct {
		To string `json:"to"`
	}) (string, error) {
		isTarget, hasAnswer, answer := tool.GetResumeContext[agui.ResumeEntry](ctx)
		if !isTarget || !hasAnswer {
			return "", tool.Interrupt(ctx, "Book the flight to "+in.To+"?")
		}
		if answer.Status != agui.ResumeResolved {
			return "not booked", nil
		}
		return "booked to " + in.To, nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	chat, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
		Name: "travel", Description: "Books flights", Instruction: "Book what the user asks.",
		Model: eino.NewFakeModel(
			eino.CallTurn("call_1", "book_flight", `{"to":"Oslo"}`),
			eino.TextTurn("Your flight is booked.")),
		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{Tools: []tool.BaseTool{book}}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	store, err := eino.NewCheckPointStore(&mapKV{m: map[string][]byte{}}, eino.WithTTL(time.Hour))
	if err != nil {
		fmt.Println(err)
		return
	}
	agent, err := eino.NewAgent(chat, eino.WithCheckPointStore(store))
	if err != nil {
		fmt.Println(err)
		return
	}

	in := agui.NewInput("thread-1", "run-1")
	in.Messages = []agui.Message{&agui.UserMessage{ID: "u1", Content: agui.TextContent("Book Oslo.")}}
	var pending agui.Interrupt
	for ev, err := range core.Run(ctx, agent, in) {
		if err != nil {
			fmt.Println(err)
			return
		}
		if f, ok := ev.(*agui.RunFinished); ok {
			pending = f.Outcome.Interrupts[0]
			fmt.Printf("run 1: %s, %q on %s\n", f.Outcome.Type, pending.Message, pending.ToolCallID)
		}
	}

	resume := agui.NewInput("thread-1", "run-2")
	resume.Resume = []agui.ResumeEntry{{InterruptID: pending.ID, Status: agui.ResumeResolved}}
	var text strings.Builder
	for ev, err := range core.Run(ctx, agent, resume) {
		if err != nil {
			fmt.Println(err)
			return
		}
		switch ev := ev.(type) {
		case *agui.ToolCallResult:
			fmt.Printf("run 2: result %q\n", ev.Content.String())
		case *agui.TextMessageContent:
			text.WriteString(ev.Delta)
		case *agui.RunFinished:
			fmt.Printf("run 2: %s, %q\n", ev.Outcome.Type, text.String())
		}
	}
	// Output:
	// run 1: interrupt, "Book the flight to Oslo?" on call_1
	// run 2: result "booked to Oslo"
	// run 2: success, "Your flight is booked."
}
