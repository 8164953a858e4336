package mcptool

import (
	"context"
	"errors"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type addIn struct {
	A int `json:"a" jsonschema:"the first number"`
	B int `json:"b" jsonschema:"the second number"`
}

type addOut struct {
	Sum int `json:"sum"`
}

type empty struct{}

// hooks lets an in-process test see into the server's "wait" tool.
type hooks struct {
	started   chan struct{} // a wait call began
	cancelled chan error    // a wait call's context ended, with its error
}

func newHooks() *hooks {
	return &hooks{started: make(chan struct{}, 8), cancelled: make(chan error, 8)}
}

// testServer is a real MCP server built with the SDK: "add" adds, "fail"
// reports a tool error, "wait" blocks until its request is cancelled, and
// "die" ends the process (for the subprocess server).
func testServer(h *hooks) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "add", Description: "Adds two numbers"}, func(ctx context.Context, _ *mcp.CallToolRequest, in addIn) (*mcp.CallToolResult, addOut, error) {
		return nil, addOut{Sum: in.A + in.B}, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "fail", Description: "Always fails"}, func(ctx context.Context, _ *mcp.CallToolRequest, in empty) (*mcp.CallToolResult, any, error) {
		return nil, nil, errors.New("the disk is full")
	})
	mcp.AddTool(s, &mcp.Tool{Name: "wait", Description: "Waits until cancelled"}, func(ctx context.Context, _ *mcp.CallToolRequest, in empty) (*mcp.CallToolResult, any, error) {
		if h != nil {
			h.started <- struct{}{}
		}
		<-ctx.Done()
		if h != nil {
			h.cancelled <- ctx.Err()
		}
		return nil, nil, ctx.Err()
	})
	mcp.AddTool(s, &mcp.Tool{Name: "die", Description: "Ends the server process"}, func(ctx context.Context, _ *mcp.CallToolRequest, in empty) (*mcp.CallToolResult, any, error) {
		if h == nil {
			os.Exit(3)
		}
		return nil, nil, errors.New("not a subprocess")
	})
	return s
}
