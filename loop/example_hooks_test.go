package loop_test

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"strings"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
)

type pathIn struct {
	Path string `json:"path"`
}

// readFile is a tool that pretends to read a file.
func readFile() loop.Tool {
	t, err := loop.NewTool("read_file", "Reads a file", func(ctx context.Context, in pathIn) (string, error) {
		return "contents of " + in.Path + " (api_key=sk-123)", nil
	})
	if err != nil {
		panic(err)
	}
	return t
}

// printResults prints each tool result of a transcript.
func printResults(msgs []agui.Message) {
	for _, m := range msgs {
		if tm, ok := m.(*agui.ToolMessage); ok {
			fmt.Println(tm.ToolCallID, tm.Content.String())
		}
	}
}

// A WithBeforeToolCall hook denies one call (the model reads why) and rewrites
// another's arguments (the rewritten call is what runs and what the
// transcript keeps).
func ExampleWithBeforeToolCall() {
	model := loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{
			{ID: "call-1", Name: "read_file", Args: `{"path":"/etc/shadow"}`},
			{ID: "call-2", Name: "read_file", Args: `{"path":"notes.txt"}`},
		}},
		loop.Turn{Text: "Done."},
	)
	agent, err := loop.New(model, loop.WithTools(readFile()), loop.WithToolConcurrency(1),
		loop.WithBeforeToolCall(func(ctx context.Context, c loop.Call) (loop.CallVerdict, error) {
			var in pathIn
			if err := json.Unmarshal(c.Args, &in); err != nil {
				return loop.CallVerdict{}, err
			}
			if strings.HasPrefix(in.Path, "/") {
				return loop.CallVerdict{Deny: "only files of the workspace may be read"}, nil
			}
			return loop.CallVerdict{Args: json.RawMessage(`{"path":"workspace/` + in.Path + `"}`)}, nil
		}))
	if err != nil {
		panic(err)
	}
	res, err := agent.Execute(context.Background(), loop.Input{Messages: []agui.Message{loop.UserText("Read my files")}})
	if err != nil {
		panic(err)
	}
	printResults(res.Messages)
	fmt.Println(res.Messages[1].(*agui.AssistantMessage).ToolCalls[1].Function.Arguments)
	// Output:
	// call-1 {"error":"denied","message":"only files of the workspace may be read"}
	// call-2 contents of workspace/notes.txt (api_key=sk-123)
	// {"path":"workspace/notes.txt"}
}

// A WithAfterToolCall hook redacts secrets from every result before the
// client and the model see it.
func ExampleWithAfterToolCall() {
	model := loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{{ID: "call-1", Name: "read_file", Args: `{"path":"config.env"}`}}},
		loop.Turn{Text: "Done."},
	)
	agent, err := loop.New(model, loop.WithTools(readFile()),
		loop.WithAfterToolCall(func(ctx context.Context, c loop.Call, r loop.CallResult) (loop.CallResult, error) {
			if i := strings.Index(r.Content, "api_key="); i >= 0 {
				r.Content = r.Content[:i] + "api_key=[redacted])"
			}
			return r, nil
		}))
	if err != nil {
		panic(err)
	}
	res, err := agent.Execute(context.Background(), loop.Input{
		Messages: []agui.Message{loop.UserText("Show the config")},
		OnEvent: func(ev agui.Event) error {
			if e, ok := ev.(*agui.ToolCallResult); ok {
				fmt.Println("client:", e.Content.String())
			}
			return nil
		},
	})
	if err != nil {
		panic(err)
	}
	printResults(res.Messages)
	// Output:
	// client: contents of config.env (api_key=[redacted])
	// call-1 contents of config.env (api_key=[redacted])
}

// A WithBeforeModelCall hook adds context to every model request without
// putting it in the transcript.
func ExampleWithBeforeModelCall() {
	var model loop.Provider = loop.ProviderFunc(func(ctx context.Context, req loop.ModelRequest) iter.Seq2[loop.Delta, error] {
		return func(yield func(loop.Delta, error) bool) {
			last := req.Messages[len(req.Messages)-1].(*agui.SystemMessage)
			yield(loop.Delta{Text: "I know that " + last.Content}, nil)
		}
	})
	agent, err := loop.New(model, loop.WithBeforeModelCall(func(ctx context.Context, req loop.ModelRequest) (loop.ModelRequest, error) {
		req.Messages = append(req.Messages[:len(req.Messages):len(req.Messages)], &agui.SystemMessage{ID: "ctx", Content: "the user is in Oslo."})
		return req, nil
	}))
	if err != nil {
		panic(err)
	}
	res, err := agent.Execute(context.Background(), loop.Input{Messages: []agui.Message{loop.UserText("Where am I?")}})
	if err != nil {
		panic(err)
	}
	fmt.Println(len(res.Messages), res.Messages[1].(*agui.AssistantMessage).Content)
	// Output:
	// 2 I know that the user is in Oslo.
}

// A tool reads its call from its context: the call id is its idempotency
// key, and an attempt above 1 says an earlier run may have started it.
func ExampleCallFrom() {
	charge, err := loop.NewTool("charge", "Charges the card", func(ctx context.Context, in struct {
		Cents int `json:"cents"`
	}) (string, error) {
		call, _ := loop.CallFrom(ctx)
		// e.g. req.Header.Set("Idempotency-Key", threadID+"/"+call.ID)
		return fmt.Sprintf("charged %d with key %s (attempt %d)", in.Cents, call.ID, call.Attempt), nil
	})
	if err != nil {
		panic(err)
	}
	model := loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{{ID: "call-7", Name: "charge", Args: `{"cents":500}`}}},
		loop.Turn{Text: "Charged."},
	)
	agent, err := loop.New(model, loop.WithTools(charge))
	if err != nil {
		panic(err)
	}
	res, err := agent.Execute(context.Background(), loop.Input{Messages: []agui.Message{loop.UserText("Pay")}})
	if err != nil {
		panic(err)
	}
	printResults(res.Messages)
	// Output:
	// call-7 charged 500 with key call-7 (attempt 1)
}

// The user approves a call with edited arguments: the edited call runs.
func ExampleWithNeedsApproval_editedArguments() {
	model := loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{{ID: "call-1", Name: "read_file", Args: `{"path":"all-secrets.txt"}`}}},
		loop.Turn{Text: "Done."},
	)
	agent, err := loop.New(model, loop.WithTools(readFile()), loop.WithNeedsApproval(func(loop.Call) bool { return true }))
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	res, err := agent.Execute(ctx, loop.Input{Messages: []agui.Message{loop.UserText("Read it")}})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.FinishReason, res.Interrupt.Metadata["arguments"])
	res, err = agent.Execute(ctx, loop.Input{ThreadID: res.ThreadID, Resume: []agui.ResumeEntry{{
		InterruptID: res.Interrupt.ID,
		Status:      agui.ResumeResolved,
		Payload:     json.RawMessage(`{"approved":true,"arguments":{"path":"readme.txt"}}`),
	}}})
	if err != nil {
		panic(err)
	}
	printResults(res.Messages)
	// Output:
	// awaiting-approval {"path":"all-secrets.txt"}
	// call-1 contents of readme.txt (api_key=sk-123)
}

// An approval with a deadline: the interrupt carries expiresAt, and
// approving after it rejects the call and fails the run with
// APPROVAL_EXPIRED.
func ExampleWithApprovalTimeout() {
	model := loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{{ID: "call-1", Name: "read_file", Args: `{"path":"a.txt"}`}}},
		loop.Turn{Text: "Done."},
	)
	agent, err := loop.New(model, loop.WithTools(readFile()),
		loop.WithNeedsApproval(func(loop.Call) bool { return true }),
		loop.WithApprovalTimeout(time.Nanosecond)) // gone by the time anyone answers
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	res, err := agent.Execute(ctx, loop.Input{Messages: []agui.Message{loop.UserText("Read it")}})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Interrupt.ExpiresAt != "")
	res, err = agent.Execute(ctx, loop.Input{ThreadID: res.ThreadID, Resume: []agui.ResumeEntry{{
		InterruptID: res.Interrupt.ID, Status: agui.ResumeResolved,
	}}})
	fmt.Println(agui.CodeOf(err))
	fmt.Println(res.Messages[2].(*agui.ToolMessage).Content.String()[:40])
	// Output:
	// true
	// APPROVAL_EXPIRED
	// {"error":"rejected","message":"rejected:
}

// swappable is a tool set whose tools change, like an MCP server's.
type swappable struct{ tools []loop.Tool }

func (s *swappable) Tools() []loop.Tool { return s.tools }

// WithToolSets are read at every model turn, so a set that changes is seen by
// the model's next turn.
func ExampleWithToolSets() {
	set := &swappable{tools: []loop.Tool{readFile()}}
	var model loop.Provider = loop.ProviderFunc(func(ctx context.Context, req loop.ModelRequest) iter.Seq2[loop.Delta, error] {
		return func(yield func(loop.Delta, error) bool) {
			names := make([]string, len(req.Tools))
			for i, s := range req.Tools {
				names[i] = s.Name
			}
			yield(loop.Delta{Text: "tools: " + strings.Join(names, ", ")}, nil)
		}
	})
	agent, err := loop.New(model, loop.WithToolSets(set))
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	res, _ := agent.Execute(ctx, loop.Input{ThreadID: "t", Messages: []agui.Message{loop.UserText("What can you do?")}})
	fmt.Println(res.Messages[1].(*agui.AssistantMessage).Content)
	set.tools = nil
	res, _ = agent.Execute(ctx, loop.Input{ThreadID: "t", Messages: []agui.Message{loop.UserText("And now?")}})
	fmt.Println(res.Messages[3].(*agui.AssistantMessage).Content)
	// Output:
	// tools: read_file
	// tools:
}
