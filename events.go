package agui

// This file declares one struct per AG-UI 1.0 event. Field comments give
// the wire name where it differs from the Go name's camel case. Optional
// string fields are omitted on the wire when empty; optional opaque JSON
// values (type any) are omitted when nil.

// Role is the role of a message.
type Role string

// The message roles of AG-UI 1.0.
const (
	RoleDeveloper Role = "developer"
	RoleSystem    Role = "system"
	RoleAssistant Role = "assistant"
	RoleUser      Role = "user"
	RoleTool      Role = "tool"
	RoleActivity  Role = "activity"
	RoleReasoning Role = "reasoning"
)

// TextMessageStart opens a text message.
type TextMessageStart struct {
	Base
	Attribution
	MessageID string
	// Role is one of developer, system, assistant or user; "" omits it (the
	// client then applies assistant).
	Role Role
	Name string
}

// TextMessageContent carries one delta of an open text message. Delta may
// be empty.
type TextMessageContent struct {
	Base
	Attribution
	MessageID string
	Delta     string
}

// TextMessageEnd closes a text message.
type TextMessageEnd struct {
	Base
	Attribution
	MessageID string
}

// TextMessageChunk is the convenience form the client expands into
// START/CONTENT/END. Every field is optional.
type TextMessageChunk struct {
	Base
	Attribution
	MessageID string
	Role      Role
	Delta     string
	Name      string
}

// ToolCallStart opens a tool call.
type ToolCallStart struct {
	Base
	Attribution
	ToolCallID      string
	ToolCallName    string
	ParentMessageID string
}

// ToolCallArgs carries one delta of a tool call's JSON arguments.
type ToolCallArgs struct {
	Base
	Attribution
	ToolCallID string
	Delta      string
}

// ToolCallEnd closes a tool call's arguments.
type ToolCallEnd struct {
	Base
	Attribution
	ToolCallID string
}

// ToolCallChunk is the convenience form the client expands into
// START/ARGS/END. Every field is optional.
type ToolCallChunk struct {
	Base
	Attribution
	ToolCallID      string
	ToolCallName    string
	ParentMessageID string
	Delta           string
}

// ToolCallResult carries a tool's result as a new tool message.
type ToolCallResult struct {
	Base
	Attribution
	MessageID  string
	ToolCallID string
	Content    Content
	// Role is "tool" or "" (omitted).
	Role Role
}

// StateSnapshot replaces the client's state. Snapshot is required on the
// wire and may be JSON null: a nil Snapshot is written as null.
type StateSnapshot struct {
	Base
	Attribution
	Snapshot any
}

// StateDelta patches the client's state with RFC 6902 operations.
type StateDelta struct {
	Base
	Attribution
	Delta []PatchOp
}

// MessagesSnapshot replaces the client's message list. It is never
// attributed; each message carries its own subagentRunId.
type MessagesSnapshot struct {
	Base
	Messages []Message
}

// ActivitySnapshot creates or replaces an activity message.
type ActivitySnapshot struct {
	Base
	Attribution
	MessageID    string
	ActivityType string
	// Content is a JSON object; nil is written as {}.
	Content map[string]any
	// Replace is written only when non-nil; absent means true.
	Replace *bool
}

// ActivityDelta patches an activity message's content.
type ActivityDelta struct {
	Base
	Attribution
	MessageID    string
	ActivityType string
	Patch        []PatchOp
}

// Raw passes through an event from another system. Event is required on the
// wire and may be JSON null: a nil Event is written as null.
type Raw struct {
	Base
	Attribution
	Event  any
	Source string
}

// Custom is an application-defined event. Value is required on the wire
// and may be JSON null: a nil Value is written as null.
type Custom struct {
	Base
	Attribution
	Name  string
	Value any
}

// RunStarted is the first event of every run.
type RunStarted struct {
	Base
	ThreadID    string
	RunID       string
	ParentRunID string
	// ProtocolVersion is the producer's own protocol version; the runner
	// always sets it to ProtocolVersion ("1.0").
	ProtocolVersion string
	// Input echoes the run's input when non-nil.
	Input *RunAgentInput
}

// RunFinished ends a run that completed, paused or was stopped on purpose.
type RunFinished struct {
	Base
	ThreadID string
	RunID    string
	// Result is omitted when nil; JSON null is not allowed on the wire.
	Result any
	// Outcome is omitted when nil, which the client reads as success.
	Outcome *Outcome
	Usage   []TokenUsage
}

// RunError ends a run that failed.
type RunError struct {
	Base
	Message string
	Code    string
	Usage   []TokenUsage
}

// StepStarted opens a named step of the run (steps are tracked per owner).
type StepStarted struct {
	Base
	Attribution
	StepName string
}

// StepFinished closes a named step.
type StepFinished struct {
	Base
	Attribution
	StepName string
}

// ReasoningStart opens a reasoning span.
type ReasoningStart struct {
	Base
	Attribution
	MessageID string
}

// ReasoningMessageStart opens a reasoning message. Its role is always
// "reasoning" on the wire.
type ReasoningMessageStart struct {
	Base
	Attribution
	MessageID string
}

// ReasoningMessageContent carries one delta of a reasoning message.
type ReasoningMessageContent struct {
	Base
	Attribution
	MessageID string
	Delta     string
}

// ReasoningMessageEnd closes a reasoning message.
type ReasoningMessageEnd struct {
	Base
	Attribution
	MessageID string
}

// ReasoningMessageChunk is the convenience form of reasoning content.
type ReasoningMessageChunk struct {
	Base
	Attribution
	MessageID string
	Delta     string
}

// ReasoningEnd closes a reasoning span.
type ReasoningEnd struct {
	Base
	Attribution
	MessageID string
}

// EncryptedSubtype names what a REASONING_ENCRYPTED_VALUE refers to.
type EncryptedSubtype string

// The subtypes of REASONING_ENCRYPTED_VALUE.
const (
	EncryptedToolCall EncryptedSubtype = "tool-call"
	EncryptedMessage  EncryptedSubtype = "message"
)

// ReasoningEncryptedValue attaches an opaque encrypted value to a tool call
// or message.
type ReasoningEncryptedValue struct {
	Base
	Attribution
	Subtype        EncryptedSubtype
	EntityID       string
	EncryptedValue string
	// EncryptedValueType (AG-UI 1.1) labels EncryptedValue as
	// [ToolCall.EncryptedValueType] does; empty means unlabelled.
	EncryptedValueType string
}

// SubagentStarted opens one subagent invocation. SubagentRunID is required
// (and may be ""): it names the invocation, it is not an attribution tag.
type SubagentStarted struct {
	Base
	SubagentRunID       string
	Name                string
	Description         string
	ParentSubagentRunID string
	ParentToolCallID    string
	ParentMessageID     string
}

// SubagentFinished closes a subagent invocation.
type SubagentFinished struct {
	Base
	SubagentRunID string
	// Result is omitted when nil.
	Result any
	// Outcome is omitted when nil, which means success.
	Outcome *SubagentOutcome
}

// SubagentError closes a subagent invocation that failed. The run goes on.
type SubagentError struct {
	Base
	SubagentRunID string
	Message       string
	Code          string
}

// SubagentOutcome is how a subagent invocation ended.
type SubagentOutcome struct {
	// Type is "success" or "suspended".
	Type string
	// InterruptIDs names the interrupts a suspended invocation waits on.
	InterruptIDs []string
}

// PatchOp is one RFC 6902 JSON Patch operation.
type PatchOp struct {
	// Op is add, remove, replace, move, copy or test.
	Op string `json:"op"`
	// Path is an RFC 6901 pointer: "" or a string starting with "/".
	Path string `json:"path"`
	// From is required for move and copy, omitted otherwise.
	From string `json:"from,omitempty"`
	// Value is required for add, replace and test, where nil is written as
	// null; it is omitted for the other operations.
	Value any `json:"value,omitempty"`
}

func (*TextMessageStart) Type() EventType        { return TypeTextMessageStart }
func (*TextMessageContent) Type() EventType      { return TypeTextMessageContent }
func (*TextMessageEnd) Type() EventType          { return TypeTextMessageEnd }
func (*TextMessageChunk) Type() EventType        { return TypeTextMessageChunk }
func (*ToolCallStart) Type() EventType           { return TypeToolCallStart }
func (*ToolCallArgs) Type() EventType            { return TypeToolCallArgs }
func (*ToolCallEnd) Type() EventType             { return TypeToolCallEnd }
func (*ToolCallChunk) Type() EventType           { return TypeToolCallChunk }
func (*ToolCallResult) Type() EventType          { return TypeToolCallResult }
func (*StateSnapshot) Type() EventType           { return TypeStateSnapshot }
func (*StateDelta) Type() EventType              { return TypeStateDelta }
func (*MessagesSnapshot) Type() EventType        { return TypeMessagesSnapshot }
func (*ActivitySnapshot) Type() EventType        { return TypeActivitySnapshot }
func (*ActivityDelta) Type() EventType           { return TypeActivityDelta }
func (*Raw) Type() EventType                     { return TypeRaw }
func (*Custom) Type() EventType                  { return TypeCustom }
func (*RunStarted) Type() EventType              { return TypeRunStarted }
func (*RunFinished) Type() EventType             { return TypeRunFinished }
func (*RunError) Type() EventType                { return TypeRunError }
func (*StepStarted) Type() EventType             { return TypeStepStarted }
func (*StepFinished) Type() EventType            { return TypeStepFinished }
func (*ReasoningStart) Type() EventType          { return TypeReasoningStart }
func (*ReasoningMessageStart) Type() EventType   { return TypeReasoningMessageStart }
func (*ReasoningMessageContent) Type() EventType { return TypeReasoningMessageContent }
func (*ReasoningMessageEnd) Type() EventType     { return TypeReasoningMessageEnd }
func (*ReasoningMessageChunk) Type() EventType   { return TypeReasoningMessageChunk }
func (*ReasoningEnd) Type() EventType            { return TypeReasoningEnd }
func (*ReasoningEncryptedValue) Type() EventType { return TypeReasoningEncryptedValue }
func (*SubagentStarted) Type() EventType         { return TypeSubagentStarted }
func (*SubagentFinished) Type() EventType        { return TypeSubagentFinished }
func (*SubagentError) Type() EventType           { return TypeSubagentError }
