package loop_test

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/loop"
)

// The document reaches the shared state while the model is still
// writing the call's arguments, so a page shows it filling in before the
// call ends; the tool's own update, the same document here, has the last
// word.
func ExampleWithPredictState() {
	type doc struct {
		Document string `json:"document"`
	}
	write, _ := loop.NewTool("write_document", "writes the document", func(ctx context.Context, in doc) (string, error) {
		return "written", loop.UpdateState(ctx, func(s *doc) { *s = in })
	})
	// A model that streams the call's arguments in three pieces, then
	// answers the tool's result.
	model := loop.ProviderFunc(func(ctx context.Context, req loop.ModelRequest) iter.Seq2[loop.Delta, error] {
		return func(yield func(loop.Delta, error) bool) {
			if _, answered := req.Messages[len(req.Messages)-1].(*agui.ToolMessage); answered {
				yield(loop.Delta{Text: "Done."}, nil)
				return
			}
			for i, args := range []string{`{"document":"Once upon`, ` a time`, `."}`} {
				d := &loop.ToolCallDelta{Args: args}
				if i == 0 {
					d.ID, d.Name = "call-1", "write_document"
				}
				if !yield(loop.Delta{ToolCall: d}, nil) {
					return
				}
			}
		}
	})
	agent, _ := loop.NewTyped[doc](model, loop.WithTools(write),
		loop.WithPredictState("write_document", map[string]string{"document": "document"}))
	in := agui.NewInput("t1", "r1")
	in.Messages = []agui.Message{loop.UserText("Write a story")}
	in.State = json.RawMessage(`{"document":""}`)
	for ev, err := range core.Run(context.Background(), core.Agent[doc](agent), in) {
		if err != nil {
			panic(err)
		}
		switch e := ev.(type) {
		case *agui.StateSnapshot:
			b, _ := json.Marshal(e.Snapshot)
			fmt.Println("snapshot", string(b))
		case *agui.ToolCallEnd, *agui.ToolCallResult:
			fmt.Println(ev.Type())
		}
	}
	// Output:
	// snapshot {"document":"Once upon"}
	// snapshot {"document":"Once upon a time"}
	// snapshot {"document":"Once upon a time."}
	// TOOL_CALL_END
	// TOOL_CALL_RESULT
}
