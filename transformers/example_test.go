package transformers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/transformers"
)

// callTools is an agent that calls each named tool and then speaks.
func callTools(names ...string) core.AgentFunc[core.NoState] {
	return func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		for _, name := range names {
			tc, err := rc.ToolCall(name)
			if err != nil {
				return agui.Outcome{}, err
			}
			if err := tc.Args(`{"q":"go"}`); err != nil {
				return agui.Outcome{}, err
			}
			if err := tc.ResultText(`["golang.org"]`); err != nil {
				return agui.Outcome{}, err
			}
		}
		return agui.Success(), rc.Say("Done.")
	}
}

// printTypes prints each event's type, with the tool name of a call.
func printTypes(events func(func(agui.Event, error) bool)) {
	for ev, err := range events {
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		if s, ok := ev.(*agui.ToolCallStart); ok {
			fmt.Println(ev.Type(), s.ToolCallName)
			continue
		}
		fmt.Println(ev.Type())
	}
}

func ExampleFilterToolCalls() {
	agent := callTools("lookup_customer", "search")
	// The agent still calls lookup_customer; the client never hears of it.
	hide := transformers.DenyToolCalls("lookup_customer")
	printTypes(core.Run(context.Background(), agent, agui.NewInput("thread-1", "run-1"), core.WithTransformers(hide)))
	// Output:
	// RUN_STARTED
	// TOOL_CALL_START search
	// TOOL_CALL_ARGS
	// TOOL_CALL_END
	// TOOL_CALL_RESULT
	// TEXT_MESSAGE_START
	// TEXT_MESSAGE_CONTENT
	// TEXT_MESSAGE_END
	// RUN_FINISHED
}

func ExampleToolResultToState() {
	toState, err := transformers.ToolResultToState(transformers.StateMapping{
		Tool: "search",
		Path: "/search/results",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	in := agui.NewInput("thread-1", "run-1")
	in.State = json.RawMessage(`{"title":"Q3 plan"}`)
	for ev, err := range core.Run(context.Background(), callTools("search"), in, core.WithTransformers(toState)) {
		if err != nil {
			fmt.Println(err)
			return
		}
		switch e := ev.(type) {
		case *agui.StateSnapshot:
			b, _ := json.Marshal(e.Snapshot)
			fmt.Printf("%s %s\n", ev.Type(), b)
		case *agui.StateDelta:
			b, _ := json.Marshal(e.Delta)
			fmt.Printf("%s %s\n", ev.Type(), b)
		case *agui.ToolCallResult:
			fmt.Println(ev.Type(), e.Content.String())
		}
	}
	// Output:
	// TOOL_CALL_RESULT ["golang.org"]
	// STATE_SNAPSHOT {"search":{"results":["golang.org"]},"title":"Q3 plan"}
}

func ExampleSubagentVisibility() {
	supervisor := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		planner, err := rc.Subagent("planner")
		if err != nil {
			return agui.Outcome{}, err
		}
		if err := planner.Say("Two tasks."); err != nil {
			return agui.Outcome{}, err
		}
		if err := planner.Finish(map[string]int{"tasks": 2}); err != nil {
			return agui.Outcome{}, err
		}
		return agui.Success(), rc.Say("Plan ready.")
	})
	for _, mode := range []transformers.Visibility{transformers.VisibilityInline, transformers.VisibilityHidden} {
		fmt.Println("--", mode)
		for ev, err := range core.Run(context.Background(), supervisor, agui.NewInput("thread-1", "run-1"),
			core.WithTransformers(transformers.SubagentVisibility(mode))) {
			if err != nil {
				fmt.Println(err)
				return
			}
			if sub := agui.SubagentOf(ev); sub != "" {
				fmt.Println(ev.Type(), "(subagent)")
			} else {
				fmt.Println(ev.Type())
			}
		}
	}
	// Output:
	// -- inline
	// RUN_STARTED
	// TEXT_MESSAGE_START (subagent)
	// TEXT_MESSAGE_CONTENT (subagent)
	// TEXT_MESSAGE_END (subagent)
	// TEXT_MESSAGE_START
	// TEXT_MESSAGE_CONTENT
	// TEXT_MESSAGE_END
	// RUN_FINISHED
	// -- hidden
	// RUN_STARTED
	// TEXT_MESSAGE_START
	// TEXT_MESSAGE_CONTENT
	// TEXT_MESSAGE_END
	// RUN_FINISHED
}

func ExampleLog() {
	// Drop the time so that the output is stable.
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	}))
	quiet := core.AgentFunc[core.NoState](func(context.Context, *core.RunContext[core.NoState]) (agui.Outcome, error) {
		return agui.Success(), nil
	})
	for _, err := range core.Run(context.Background(), quiet, agui.NewInput("thread-1", "run-1"),
		core.WithTransformers(transformers.Log(logger, slog.LevelInfo))) {
		if err != nil {
			fmt.Println(err)
		}
	}
	// Output:
	// level=INFO msg="agui event" thread_id=thread-1 run_id=run-1 type=RUN_STARTED
	// level=INFO msg="agui event" thread_id=thread-1 run_id=run-1 type=RUN_FINISHED outcome=success
}

// printSink is a MetricsSink that prints what it is told; a real one feeds
// Prometheus or OpenTelemetry, and must be safe for concurrent use.
type printSink struct{}

func (printSink) RunStarted(run transformers.RunInfo) {
	fmt.Println("started", run.ThreadID, run.RunID)
}
func (printSink) Event(_ transformers.RunInfo, t agui.EventType) { fmt.Println("event", t) }
func (printSink) RunEnded(end transformers.RunEnd) {
	fmt.Println("ended", end.Outcome, end.Events, "events")
}

func ExampleMetrics() {
	quiet := core.AgentFunc[core.NoState](func(context.Context, *core.RunContext[core.NoState]) (agui.Outcome, error) {
		return agui.Success(), nil
	})
	for _, err := range core.Run(context.Background(), quiet, agui.NewInput("thread-1", "run-1"),
		core.WithTransformers(transformers.Metrics(printSink{}))) {
		if err != nil {
			fmt.Println(err)
		}
	}
	// Output:
	// started thread-1 run-1
	// event RUN_STARTED
	// event RUN_FINISHED
	// ended success 2 events
}
