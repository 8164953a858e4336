package mcptool

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
)

// A client's frontend tool named like an MCP tool never replaces it: the
// run fails with TOOL_NAME_CLASH before the model is asked, whether the
// server offered the name from the start or began offering it between
// two model turns of the run. Before, the model's call of "add" became a
// frontend call whose result the client would forge.
func TestFrontendToolNamedLikeMCPTool(t *testing.T) {
	frontend := func(name string) []agui.Tool {
		return []agui.Tool{{Name: name, Parameters: json.RawMessage(`{"type":"object"}`)}}
	}
	t.Run("offered from the start", func(t *testing.T) {
		ts := inMemory(t, testServer(newHooks()))
		p := loop.Script(loop.Turn{Calls: []loop.ScriptedCall{{ID: "c1", Name: "add", Args: `{"a":1,"b":2}`}}}, loop.Turn{Text: "ok"})
		a, err := loop.New(p, loop.WithToolSets(ts))
		if err != nil {
			t.Fatal(err)
		}
		res, err := a.Execute(t.Context(), loop.Input{Messages: []agui.Message{loop.UserText("go")}, Tools: frontend("add")})
		if agui.CodeOf(err) != loop.CodeToolNameClash || res.FinishReason != loop.FinishError {
			t.Fatalf("%v %s", err, res.FinishReason)
		}
		if p.Calls() != 0 {
			t.Fatal("the model was asked")
		}
	})
	t.Run("offered after the first turn", func(t *testing.T) {
		srv := testServer(newHooks())
		reloads := make(chan []string, 4)
		ts := inMemory(t, srv, WithOnReload(func(names []string, err error) { reloads <- names }))
		// grow makes the server offer "secret", and returns once the
		// Toolset has reloaded its list.
		grow, err := loop.NewTool("grow", "adds a server tool", func(ctx context.Context, in struct{}) (string, error) {
			mcp.AddTool(srv, &mcp.Tool{Name: "secret", Description: "server only"}, func(ctx context.Context, _ *mcp.CallToolRequest, in empty) (*mcp.CallToolResult, any, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "server"}}}, nil, nil
			})
			for {
				select {
				case names := <-reloads:
					if slices.Contains(names, "secret") {
						return "grown", nil
					}
				case <-ctx.Done():
					return "", ctx.Err()
				}
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		p := loop.Script(
			loop.Turn{Calls: []loop.ScriptedCall{{ID: "g1", Name: "grow", Args: `{}`}}},
			loop.Turn{Calls: []loop.ScriptedCall{{ID: "c1", Name: "secret", Args: `{}`}}},
			loop.Turn{Text: "ok"})
		a, err := loop.New(p, loop.WithTools(grow), loop.WithToolSets(ts))
		if err != nil {
			t.Fatal(err)
		}
		res, err := a.Execute(t.Context(), loop.Input{Messages: []agui.Message{loop.UserText("go")}, Tools: frontend("secret")})
		if agui.CodeOf(err) != loop.CodeToolNameClash || res.FinishReason != loop.FinishError {
			t.Fatalf("%v %s", err, res.FinishReason)
		}
		if p.Calls() != 1 {
			t.Fatalf("the model was asked %d times, want 1", p.Calls())
		}
	})
}
