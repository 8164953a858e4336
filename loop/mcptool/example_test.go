package mcptool_test

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/loop/mcptool"
)

type greetIn struct {
	Name string `json:"name" jsonschema:"who to greet"`
}

// An MCP server (here in the same process, over an in-memory transport)
// offers a tool; the agent's model is offered it with its schema and calls
// it.
func ExampleConnect() {
	ctx := context.Background()
	server := mcp.NewServer(&mcp.Implementation{Name: "greeter", Version: "1"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "greet", Description: "Greets someone"},
		func(ctx context.Context, _ *mcp.CallToolRequest, in greetIn) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Hello, " + in.Name + "!"}}}, nil, nil
		})
	serverSide, clientSide := mcp.NewInMemoryTransports()
	session, err := server.Connect(ctx, serverSide, nil)
	if err != nil {
		panic(err)
	}
	defer session.Close()

	tools, err := mcptool.Connect(ctx, clientSide)
	if err != nil {
		panic(err)
	}
	defer tools.Close()
	for _, t := range tools.Tools() {
		fmt.Println(t.Name(), string(t.Spec().Schema))
	}

	model := loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{{ID: "call-1", Name: "greet", Args: `{"name":"Ada"}`}}},
		loop.Turn{Text: "Done."},
	)
	agent, err := loop.New(model, loop.WithToolSets(tools))
	if err != nil {
		panic(err)
	}
	res, err := agent.Execute(ctx, loop.Input{Messages: []agui.Message{loop.UserText("Greet Ada")}})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Messages[2].(*agui.ToolMessage).Content.String())
	// Output:
	// greet {"additionalProperties":false,"properties":{"name":{"description":"who to greet","type":"string"}},"required":["name"],"type":"object"}
	// Hello, Ada!
}
