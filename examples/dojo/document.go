package main

import (
	"context"
	"iter"
	"slices"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
	"github.com/agui-go/agui/loop"
)

// documentState is predictive_state_updates' state: the document the page
// shows in its editor while the model writes it.
type documentState struct {
	Document string `json:"document"`
}

// The tools of predictive_state_updates: the server's writer, and the
// page's confirmation (a frontend tool the page registers).
const (
	writeTool   = "write_document_local"
	confirmTool = "confirm_changes"
)

// registerDocument serves predictive_state_updates: while the model
// streams write_document_local's document argument, the loop mirrors it
// into the state (loop.WithPredictState), so the page's editor fills as
// the model writes; the tool then sets the whole document, and the page's
// confirm_changes tool asks the user to keep it.
func registerDocument(g *gin.RouterGroup, path string, provider loop.Provider, opts []core.HandlerOption) error {
	type in struct {
		Document string `json:"document" jsonschema:"the whole document, in markdown"`
	}
	tool, err := loop.NewTool(writeTool, "Writes the document the user sees, in markdown",
		func(ctx context.Context, in in) (string, error) {
			err := loop.UpdateState(ctx, func(st *documentState) { st.Document = in.Document })
			return "Document written.", err
		})
	if err != nil {
		return err
	}
	a, err := loop.NewTyped[documentState](confirmAfter(provider, writeTool, confirmTool),
		loop.WithTools(tool),
		loop.WithPredictState(writeTool, map[string]string{"document": "document"}),
		loop.WithInstructions("You write documents. Always call "+writeTool+" with the whole document, never reply with it in text."))
	if err != nil {
		return err
	}
	return ginagui.Register(g, path, a, opts...)
}

// confirmAfter is provider, except that the turn after a result of tool
// is a call of the frontend tool confirm (when the page offers it)
// instead of a model turn: the run then ends with confirm pending, and the
// page asks the user before the model goes on with the next run.
func confirmAfter(provider loop.Provider, tool, confirm string) loop.Provider {
	return loop.ProviderFunc(func(ctx context.Context, req loop.ModelRequest) iter.Seq2[loop.Delta, error] {
		offered := slices.ContainsFunc(req.Tools, func(t loop.ToolSpec) bool { return t.Name == confirm })
		if !offered || !afterResultOf(req.Messages, tool) {
			return provider.Stream(ctx, req)
		}
		return func(yield func(loop.Delta, error) bool) {
			if err := ctx.Err(); err != nil {
				yield(loop.Delta{}, err)
				return
			}
			yield(loop.Delta{ToolCall: &loop.ToolCallDelta{Name: confirm, Args: "{}"}}, nil)
		}
	})
}

// afterResultOf reports whether the transcript ends with a result of a
// call of tool.
func afterResultOf(msgs []agui.Message, tool string) bool {
	if len(msgs) == 0 {
		return false
	}
	tm, ok := msgs[len(msgs)-1].(*agui.ToolMessage)
	if !ok {
		return false
	}
	for _, m := range slices.Backward(msgs) {
		if am, ok := m.(*agui.AssistantMessage); ok {
			for _, c := range am.ToolCalls {
				if c.ID == tm.ToolCallID {
					return c.Function.Name == tool
				}
			}
		}
	}
	return false
}
