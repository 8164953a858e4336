// TEMPORARY: stand-ins for the wire branch (AppendJSON, AppendSSE, SSEContentType, MaxEventSize) so this branch compiles; deleted when wire is merged.

package core

const SSEContentType = "text/event-stream"
const MaxEventSize = 10 << 20

func AppendSSE(dst []byte, ev Event) ([]byte, error)                   { return ev.AppendJSON(dst) }
func (*TextMessageStart) AppendJSON(dst []byte) ([]byte, error)        { return dst, nil }
func (*TextMessageContent) AppendJSON(dst []byte) ([]byte, error)      { return dst, nil }
func (*TextMessageEnd) AppendJSON(dst []byte) ([]byte, error)          { return dst, nil }
func (*TextMessageChunk) AppendJSON(dst []byte) ([]byte, error)        { return dst, nil }
func (*ToolCallStart) AppendJSON(dst []byte) ([]byte, error)           { return dst, nil }
func (*ToolCallArgs) AppendJSON(dst []byte) ([]byte, error)            { return dst, nil }
func (*ToolCallEnd) AppendJSON(dst []byte) ([]byte, error)             { return dst, nil }
func (*ToolCallChunk) AppendJSON(dst []byte) ([]byte, error)           { return dst, nil }
func (*ToolCallResult) AppendJSON(dst []byte) ([]byte, error)          { return dst, nil }
func (*StateSnapshot) AppendJSON(dst []byte) ([]byte, error)           { return dst, nil }
func (*StateDelta) AppendJSON(dst []byte) ([]byte, error)              { return dst, nil }
func (*MessagesSnapshot) AppendJSON(dst []byte) ([]byte, error)        { return dst, nil }
func (*ActivitySnapshot) AppendJSON(dst []byte) ([]byte, error)        { return dst, nil }
func (*ActivityDelta) AppendJSON(dst []byte) ([]byte, error)           { return dst, nil }
func (*Raw) AppendJSON(dst []byte) ([]byte, error)                     { return dst, nil }
func (*Custom) AppendJSON(dst []byte) ([]byte, error)                  { return dst, nil }
func (*RunStarted) AppendJSON(dst []byte) ([]byte, error)              { return dst, nil }
func (*RunFinished) AppendJSON(dst []byte) ([]byte, error)             { return dst, nil }
func (*RunError) AppendJSON(dst []byte) ([]byte, error)                { return dst, nil }
func (*StepStarted) AppendJSON(dst []byte) ([]byte, error)             { return dst, nil }
func (*StepFinished) AppendJSON(dst []byte) ([]byte, error)            { return dst, nil }
func (*ReasoningStart) AppendJSON(dst []byte) ([]byte, error)          { return dst, nil }
func (*ReasoningMessageStart) AppendJSON(dst []byte) ([]byte, error)   { return dst, nil }
func (*ReasoningMessageContent) AppendJSON(dst []byte) ([]byte, error) { return dst, nil }
func (*ReasoningMessageEnd) AppendJSON(dst []byte) ([]byte, error)     { return dst, nil }
func (*ReasoningMessageChunk) AppendJSON(dst []byte) ([]byte, error)   { return dst, nil }
func (*ReasoningEnd) AppendJSON(dst []byte) ([]byte, error)            { return dst, nil }
func (*ReasoningEncryptedValue) AppendJSON(dst []byte) ([]byte, error) { return dst, nil }
func (*SubagentStarted) AppendJSON(dst []byte) ([]byte, error)         { return dst, nil }
func (*SubagentFinished) AppendJSON(dst []byte) ([]byte, error)        { return dst, nil }
func (*SubagentError) AppendJSON(dst []byte) ([]byte, error)           { return dst, nil }
