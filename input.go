package agui

// RunAgentInput is the body of an AG-UI run request.
//
// Decoding is lenient, as the protocol asks of a server: unknown keys are
// ignored (see [DecodeInput] for strict mode); absent tools and context read
// as empty; a JSON null state reads as absent.
type RunAgentInput struct {
	ThreadID string
	RunID    string
	// ProtocolVersion is the consumer's version ("1.0"); "" means a client
	// older than 1.0, which gets a downgraded stream.
	ProtocolVersion string
	ParentRunID     string
	// State is the state the client holds; nil means absent. Decoded input
	// holds it as json.RawMessage.
	State    any
	Messages []Message
	Tools    []Tool
	Context  []ContextItem
	// ForwardedProps is passed through from the client; nil means absent.
	ForwardedProps any
	// Resume answers the interrupts of an earlier run.
	Resume []ResumeEntry
}

// NewInput returns an input for one run on a thread, with no messages.
func NewInput(threadID, runID string) *RunAgentInput {
	return &RunAgentInput{ThreadID: threadID, RunID: runID, ProtocolVersion: ProtocolVersion}
}

// Tool describes a tool the client offers the agent.
type Tool struct {
	Name        string
	Description string
	// Parameters is a JSON Schema; nil omits it (null is not allowed).
	Parameters any
	Metadata   map[string]any
}

// ContextItem is one piece of context the client supplies.
type ContextItem struct {
	Description string
	Value       string
}
