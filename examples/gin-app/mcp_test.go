package main

import (
	"testing"

	"github.com/agui-go/agui"
)

// TestMCPRoute: /agents/mcp runs a tool of an MCP server; its result is the
// server's answer, and the run finishes.
func TestMCPRoute(t *testing.T) {
	srv := newTestServer(t)
	evs := stream(t, srv.URL+"/agents/mcp", input("How warm is 21°C in Fahrenheit?", ""))
	var result string
	for _, ev := range evs {
		if r, ok := ev.(*agui.ToolCallResult); ok {
			result = r.Content.String()
		}
	}
	if result != "21°C is 69.8°F" {
		t.Fatalf("tool result %q", result)
	}
	if _, ok := evs[len(evs)-1].(*agui.RunFinished); !ok {
		t.Fatalf("the run ends with %s", evs[len(evs)-1].Type())
	}
}
