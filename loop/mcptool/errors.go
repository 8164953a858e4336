package mcptool

import (
	"github.com/agui-go/agui"
)

// Codes of the errors a call to an MCP tool returns (as [*agui.Error]). The
// loop turns them into the call's error result, which the model reads and
// the client is sent: code and Message only. A Message never holds the
// SDK's or the transport's error text (a session id, an address); that is
// the error's cause, which goes to the loop's log. Their values never
// change.
const (
	// CodeToolError: the tool ran and reported an error (a result with
	// isError set); the message is the tool's own text.
	CodeToolError agui.Code = "MCP_TOOL_ERROR"
	// CodeServerUnavailable: the server could not be reached, or its connection
	// is gone (a subprocess that exited, an HTTP server that is down).
	CodeServerUnavailable agui.Code = "MCP_SERVER_UNAVAILABLE"
	// CodeRemoved: the server no longer offers the tool (its tool list
	// changed after the model was shown it).
	CodeRemoved agui.Code = "MCP_TOOL_REMOVED"
	// CodeTimeout: the server did not answer a call within the call
	// timeout ([WithCallTimeout], default [DefaultCallTimeout]); the
	// request was cancelled.
	CodeTimeout agui.Code = "MCP_CALL_TIMEOUT"
	// CodeSchema: a tool's input schema is not a JSON Schema the loop can
	// validate arguments with.
	CodeSchema agui.Code = "MCP_BAD_SCHEMA"
)
