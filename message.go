package agui

// Message is one message of a conversation: a union on [Role] whose members
// are [*DeveloperMessage], [*SystemMessage], [*AssistantMessage], [*UserMessage],
// [*ToolMessage], [*ActivityMessage] and [*ReasoningMessage].
//
// A message's EncryptedValueType (AG-UI 1.1) labels its EncryptedValue as
// [ToolCall.EncryptedValueType] does.
type Message interface {
	// Role is the message's role, the union's discriminator.
	Role() Role
	// MessageID is the message's id.
	MessageID() string
	// Subagent is the subagent run id the message is attributed to, or "".
	Subagent() string
	isMessage()
}

// DeveloperMessage is an instruction from the application's developer.
type DeveloperMessage struct {
	ID                 string
	Content            string
	Name               string
	EncryptedValue     string
	EncryptedValueType string
	Metadata           map[string]any
	SubagentRunID      string
}

// SystemMessage is a system prompt.
type SystemMessage struct {
	ID                 string
	Content            string
	Name               string
	EncryptedValue     string
	EncryptedValueType string
	Metadata           map[string]any
	SubagentRunID      string
}

// AssistantMessage is the agent's message: text, tool calls, or both.
type AssistantMessage struct {
	ID string
	// Content is omitted when empty (JSON null is never written).
	Content            string
	Name               string
	ToolCalls          []ToolCall
	EncryptedValue     string
	EncryptedValueType string
	Metadata           map[string]any
	SubagentRunID      string
}

// UserMessage is the user's message: text, or content parts.
type UserMessage struct {
	ID                 string
	Content            Content
	Name               string
	EncryptedValue     string
	EncryptedValueType string
	Metadata           map[string]any
	SubagentRunID      string
}

// ToolMessage is a tool call's result.
type ToolMessage struct {
	ID                 string
	Content            Content
	ToolCallID         string
	Error              string
	EncryptedValue     string
	EncryptedValueType string
	Metadata           map[string]any
	SubagentRunID      string
}

// ActivityMessage is a structured activity the client renders.
type ActivityMessage struct {
	ID           string
	ActivityType string
	// Content is a JSON object; nil is written as {}.
	Content       map[string]any
	Metadata      map[string]any
	SubagentRunID string
}

// ReasoningMessage is visible reasoning.
type ReasoningMessage struct {
	ID                 string
	Content            string
	EncryptedValue     string
	EncryptedValueType string
	Metadata           map[string]any
	SubagentRunID      string
}

// ToolCall is one call an assistant message asks for.
type ToolCall struct {
	ID string
	// Type is always "function" on the wire.
	Function       FunctionCall
	EncryptedValue string
	// EncryptedValueType (AG-UI 1.1) labels EncryptedValue with the kind of
	// opaque value it is, a producer-defined and prefixed name such as
	// "anthropic.redacted_thinking". It is stored and returned as it is,
	// and is never set without EncryptedValue ([CodeTypeWithoutValue]).
	EncryptedValueType string
	Metadata           map[string]any
}

// FunctionCall names the function a tool call invokes and its JSON
// arguments.
type FunctionCall struct {
	Name      string
	Arguments string
}

func (*DeveloperMessage) Role() Role { return RoleDeveloper }
func (*SystemMessage) Role() Role    { return RoleSystem }
func (*AssistantMessage) Role() Role { return RoleAssistant }
func (*UserMessage) Role() Role      { return RoleUser }
func (*ToolMessage) Role() Role      { return RoleTool }
func (*ActivityMessage) Role() Role  { return RoleActivity }
func (*ReasoningMessage) Role() Role { return RoleReasoning }

func (m *DeveloperMessage) MessageID() string { return m.ID }
func (m *SystemMessage) MessageID() string    { return m.ID }
func (m *AssistantMessage) MessageID() string { return m.ID }
func (m *UserMessage) MessageID() string      { return m.ID }
func (m *ToolMessage) MessageID() string      { return m.ID }
func (m *ActivityMessage) MessageID() string  { return m.ID }
func (m *ReasoningMessage) MessageID() string { return m.ID }

func (m *DeveloperMessage) Subagent() string { return m.SubagentRunID }
func (m *SystemMessage) Subagent() string    { return m.SubagentRunID }
func (m *AssistantMessage) Subagent() string { return m.SubagentRunID }
func (m *UserMessage) Subagent() string      { return m.SubagentRunID }
func (m *ToolMessage) Subagent() string      { return m.SubagentRunID }
func (m *ActivityMessage) Subagent() string  { return m.SubagentRunID }
func (m *ReasoningMessage) Subagent() string { return m.SubagentRunID }

func (*DeveloperMessage) isMessage() {}
func (*SystemMessage) isMessage()    {}
func (*AssistantMessage) isMessage() {}
func (*UserMessage) isMessage()      {}
func (*ToolMessage) isMessage()      {}
func (*ActivityMessage) isMessage()  {}
func (*ReasoningMessage) isMessage() {}
