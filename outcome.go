package agui

// OutcomeType names how a run ended without failing.
type OutcomeType string

// The three RUN_FINISHED outcomes of AG-UI 1.0.
const (
	OutcomeSuccess   OutcomeType = "success"
	OutcomeInterrupt OutcomeType = "interrupt"
	OutcomeCancelled OutcomeType = "cancelled"
)

// Outcome is how a run ended: what an agent returns and what RUN_FINISHED
// carries. The zero Outcome is not valid; use [Success], [Interrupted] or
// [Cancelled].
type Outcome struct {
	Type OutcomeType
	// PendingToolCallIDs lists, for a success, the tool calls of this run
	// that are left for the client to answer (frontend tools).
	PendingToolCallIDs []string
	// Interrupts lists, for an interrupt, what the run waits on (at least
	// one).
	Interrupts []Interrupt
}

// Success is the outcome of a run that completed. pending names tool calls
// left for the client to answer, if any.
func Success(pending ...string) Outcome {
	return Outcome{Type: OutcomeSuccess, PendingToolCallIDs: pending}
}

// Interrupted is the outcome of a run that pauses until the client answers
// every interrupt in a later run's resume. An interrupt outcome needs at
// least one interrupt: the runner reports an empty one as a PROTOCOL error.
func Interrupted(interrupts ...Interrupt) Outcome {
	return Outcome{Type: OutcomeInterrupt, Interrupts: interrupts}
}

// Cancelled is the outcome of a run its agent stopped on purpose.
func Cancelled() Outcome { return Outcome{Type: OutcomeCancelled} }

// Interrupt is one thing a paused run waits on.
type Interrupt struct {
	ID     string
	Reason string
	// Message is shown to the user; optional.
	Message string
	// ToolCallID names the tool call the interrupt is about; optional.
	ToolCallID string
	// ResponseSchema is a JSON Schema object for the answer; optional.
	ResponseSchema map[string]any
	// ExpiresAt is an ISO-8601 time; optional.
	ExpiresAt string
	Metadata  map[string]any
	// SubagentRunID attributes the interrupt to a subagent invocation.
	SubagentRunID string
}

// NewInterrupt returns an interrupt with the given id and reason.
func NewInterrupt(id, reason string) Interrupt { return Interrupt{ID: id, Reason: reason} }

// ResumeStatus is how the client answered an interrupt.
type ResumeStatus string

// The two answers to an interrupt.
const (
	ResumeResolved  ResumeStatus = "resolved"
	ResumeCancelled ResumeStatus = "cancelled"
)

// ResumeEntry answers one interrupt of an earlier run.
type ResumeEntry struct {
	InterruptID string
	Status      ResumeStatus
	// Payload is the answer; nil means absent (JSON null is rejected).
	Payload  any
	Metadata map[string]any
}

// TokenUsage reports tokens spent. Counts are pointers because absent means
// "not reported", which is not the same as 0.
type TokenUsage struct {
	Provider              string
	Model                 string
	InputTokens           *int64
	OutputTokens          *int64
	TotalTokens           *int64
	ReasoningTokens       *int64
	CachedInputTokens     *int64
	CacheWriteInputTokens *int64
}
