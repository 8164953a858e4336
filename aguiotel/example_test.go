package aguiotel_test

import (
	"context"
	"fmt"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/agui-go/agui/aguiotel"
	"github.com/agui-go/agui/loop"
)

// Wrapping the model and the tools traces every model turn and tool call
// of a loop; wrapping the agent (aguiotel.Agent) adds the run's span around
// them when it is served.
func Example() {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer tp.Shutdown(context.Background())

	lookup, _ := loop.NewTool("lookup", "Looks a word up", func(ctx context.Context, in struct {
		Word string `json:"word"`
	}) (string, error) {
		return "a greeting", nil
	})
	lookup, _ = aguiotel.Tool(lookup, aguiotel.WithTracerProvider(tp))
	model := aguiotel.Provider(loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{{Name: "lookup", Args: `{"word":"hello"}`}}, Usage: loop.Usage{InputTokens: 12, OutputTokens: 4}},
		loop.Turn{Text: "It is a greeting.", Usage: loop.Usage{InputTokens: 30, OutputTokens: 5}},
	), "my-model", aguiotel.WithTracerProvider(tp))

	agent, _ := loop.New(model, loop.WithTools(lookup))
	if _, err := agent.Execute(context.Background(), loop.Input{Messages: nil}); err != nil {
		fmt.Println(err)
	}
	for _, s := range exp.GetSpans() {
		fmt.Println(s.Name)
	}
	// Output:
	// chat my-model
	// execute_tool lookup
	// chat my-model
}
