package agui

// Capabilities is the AG-UI 1.0 AgentCapabilities object, served by
// transports at GET <agent>/capabilities. Every group is optional: omitted
// means undeclared, not unsupported.
type Capabilities struct {
	Identity       *IdentityCapabilities       `json:"identity,omitempty"`
	Transport      *TransportCapabilities      `json:"transport,omitempty"`
	Tools          *ToolsCapabilities          `json:"tools,omitempty"`
	Output         *OutputCapabilities         `json:"output,omitempty"`
	State          *StateCapabilities          `json:"state,omitempty"`
	MultiAgent     *MultiAgentCapabilities     `json:"multiAgent,omitempty"`
	Reasoning      *ReasoningCapabilities      `json:"reasoning,omitempty"`
	Multimodal     *MultimodalCapabilities     `json:"multimodal,omitempty"`
	Execution      *ExecutionCapabilities      `json:"execution,omitempty"`
	HumanInTheLoop *HumanInTheLoopCapabilities `json:"humanInTheLoop,omitempty"`
	Custom         map[string]any              `json:"custom,omitempty"`
}

// IdentityCapabilities names the agent.
type IdentityCapabilities struct {
	Name        string         `json:"name,omitempty"`
	Type        string         `json:"type,omitempty"`
	Description string         `json:"description,omitempty"`
	Version     string         `json:"version,omitempty"`
	Provider    string         `json:"provider,omitempty"`
	DocsURL     string         `json:"documentationUrl,omitempty"`
	Metadata    map[string]any `json:"metadata,omitempty"`
}

// TransportCapabilities declares the transports the agent serves.
type TransportCapabilities struct {
	Streaming         *bool `json:"streaming,omitempty"`
	Websocket         *bool `json:"websocket,omitempty"`
	HTTPBinary        *bool `json:"httpBinary,omitempty"`
	PushNotifications *bool `json:"pushNotifications,omitempty"`
	Resumable         *bool `json:"resumable,omitempty"`
}

// ToolsCapabilities declares tool support.
type ToolsCapabilities struct {
	Supported      *bool  `json:"supported,omitempty"`
	Items          []Tool `json:"items,omitempty"` // the agent's own tools
	ParallelCalls  *bool  `json:"parallelCalls,omitempty"`
	ClientProvided *bool  `json:"clientProvided,omitempty"`
}

// OutputCapabilities declares output forms.
type OutputCapabilities struct {
	StructuredOutput   *bool    `json:"structuredOutput,omitempty"`
	SupportedMimeTypes []string `json:"supportedMimeTypes,omitempty"`
}

// StateCapabilities declares shared-state support.
type StateCapabilities struct {
	Snapshots       *bool `json:"snapshots,omitempty"`
	Deltas          *bool `json:"deltas,omitempty"`
	Memory          *bool `json:"memory,omitempty"`
	PersistentState *bool `json:"persistentState,omitempty"`
}

// MultiAgentCapabilities declares subagents. The list is spelled
// "subagents" in 1.0 ("subAgents" is not read).
type MultiAgentCapabilities struct {
	Supported  *bool          `json:"supported,omitempty"`
	Delegation *bool          `json:"delegation,omitempty"`
	Handoffs   *bool          `json:"handoffs,omitempty"`
	Subagents  []SubagentInfo `json:"subagents,omitempty"`
}

// SubagentInfo names a subagent the agent may delegate to.
type SubagentInfo struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// ReasoningCapabilities declares visible reasoning.
type ReasoningCapabilities struct {
	Supported *bool `json:"supported,omitempty"`
	Streaming *bool `json:"streaming,omitempty"`
	Encrypted *bool `json:"encrypted,omitempty"`
}

// MultimodalCapabilities declares media support.
type MultimodalCapabilities struct {
	Input  *MediaCapabilities `json:"input,omitempty"`
	Output *MediaCapabilities `json:"output,omitempty"`
}

// MediaCapabilities lists media kinds.
type MediaCapabilities struct {
	Image *bool `json:"image,omitempty"`
	Audio *bool `json:"audio,omitempty"`
	Video *bool `json:"video,omitempty"`
	PDF   *bool `json:"pdf,omitempty"`
	File  *bool `json:"file,omitempty"`
}

// ExecutionCapabilities declares execution limits.
type ExecutionCapabilities struct {
	CodeExecution    *bool  `json:"codeExecution,omitempty"`
	Sandboxed        *bool  `json:"sandboxed,omitempty"`
	MaxIterations    *int64 `json:"maxIterations,omitempty"`
	MaxExecutionTime *int64 `json:"maxExecutionTime,omitempty"`
}

// HumanInTheLoopCapabilities declares interrupts and approvals.
type HumanInTheLoopCapabilities struct {
	Supported        *bool `json:"supported,omitempty"`
	Approvals        *bool `json:"approvals,omitempty"`
	Interventions    *bool `json:"interventions,omitempty"`
	Feedback         *bool `json:"feedback,omitempty"`
	Interrupts       *bool `json:"interrupts,omitempty"`
	ApproveWithEdits *bool `json:"approveWithEdits,omitempty"`
}
