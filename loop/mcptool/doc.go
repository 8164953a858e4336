// Package mcptool gives a loop agent the tools of Model Context Protocol
// (MCP) servers, using the official Go SDK
// (github.com/modelcontextprotocol/go-sdk).
//
// Connect to a server, then hand the [Toolset] to the agent:
//
//	// A server run as a subprocess, over stdio:
//	files, err := mcptool.Connect(ctx, &mcp.CommandTransport{Command: exec.Command("my-mcp-server")})
//	// Or one reached over streamable HTTP:
//	docs, err := mcptool.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "https://mcp.example.com/mcp"},
//		mcptool.WithPrefix("docs_"))
//	defer files.Close()
//
//	agent, err := loop.New(provider, loop.WithToolSets(files, docs))
//
// Every tool of the server becomes a loop tool: its name (after
// [WithPrefix]), description and input JSON Schema are what the model is
// offered, and the loop validates the model's arguments against that
// schema before the server is called.
//
// A call runs under the run's context: aborting the run cancels the MCP
// request (the SDK sends notifications/cancelled). The call's result is
// the tool's text content (its structured content when it has no content).
// Nothing hangs and nothing is lost silently:
//
//   - a tool that reports an error (isError) gives the call an error result
//     with the tool's own text ([CodeToolError]);
//   - a server that died or cannot be reached gives every call an error
//     result ([CodeServerUnavailable]);
//   - when the server announces that its tool list changed
//     (notifications/tools/list_changed) the set reloads it, and the next
//     model turn is offered the new list; a call to a tool that is gone
//     fails with [CodeRemoved];
//   - a call the server does not answer within the call timeout
//     ([DefaultCallTimeout], 60 s; [WithCallTimeout] changes it) is
//     cancelled and fails with [CodeTimeout].
package mcptool
