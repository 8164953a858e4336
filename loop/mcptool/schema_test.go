package mcptool

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agui-go/agui"
)

// A tool whose input schema the loop cannot validate with fails Connect
// with CodeSchema, naming the tool, rather than being offered unchecked.
func TestBadSchema(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "odd", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "odd", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"$ref":"#/$defs/missing"}}}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	_, err = Connect(context.Background(), ct)
	if agui.CodeOf(err) != CodeSchema {
		t.Fatalf("err %v, want %s", err, CodeSchema)
	}
}
