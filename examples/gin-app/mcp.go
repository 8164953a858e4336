package main

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/loop/mcptool"
)

type celsiusIn struct {
	Celsius float64 `json:"celsius" jsonschema:"a temperature in degrees Celsius"`
}

// unitsServer is a Model Context Protocol server with one tool,
// convert_temperature, built with the official MCP Go SDK.
func unitsServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "units", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "convert_temperature", Description: "Converts Celsius to Fahrenheit"},
		func(ctx context.Context, _ *mcp.CallToolRequest, in celsiusIn) (*mcp.CallToolResult, any, error) {
			f := in.Celsius*9/5 + 32
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("%g°C is %g°F", in.Celsius, f)}}}, nil, nil
		})
	return s
}

// mcpAgent is the agent loop on the tools of an MCP server. Each run
// connects to the units server (in process, over the SDK's in-memory
// transport; a real deployment would use mcp.CommandTransport or
// mcp.StreamableClientTransport) and closes the session when it ends, so
// nothing outlives the run. The returned loop agent shares the runs'
// checkpoints: it is the route's owner guard and history reader.
func mcpAgent() (core.Agent[core.NoState], *loop.Agent, error) {
	server := unitsServer()
	store := loop.NewMemoryStore()
	model := loop.Script(
		loop.Turn{
			Text:  "Let me convert that.",
			Calls: []loop.ScriptedCall{{Name: "convert_temperature", Args: `{"celsius":21}`}},
		},
		loop.Turn{Text: "It is 69.8°F in Oslo."},
	)
	threads, err := loop.New(model, loop.WithCheckpoints(store))
	if err != nil {
		return nil, nil, err
	}
	return core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		serverSide, clientSide := mcp.NewInMemoryTransports()
		session, err := server.Connect(ctx, serverSide, nil)
		if err != nil {
			return agui.Outcome{}, err
		}
		defer session.Close()
		tools, err := mcptool.Connect(ctx, clientSide)
		if err != nil {
			return agui.Outcome{}, err
		}
		defer tools.Close()
		a, err := loop.New(model, loop.WithToolSets(tools), loop.WithCheckpoints(store),
			loop.WithInstructions("You convert units with the tools you are given."))
		if err != nil {
			return agui.Outcome{}, err
		}
		return a.Run(ctx, rc)
	}), threads, nil
}
