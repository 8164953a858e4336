package agui

import "strconv"

// Rule is an ordering rule of the event stream that the [Verifier] enforces.
// The zero Rule is not a rule.
type Rule uint8

// The rules of the verifier. The first eight are the ordering rules of the
// stream; the rest are the AG-UI 1.0 client checks a producer can break,
// which the client would otherwise report three network hops away.
const (
	// RuleRunEnded: an event after the run ended. After RUN_FINISHED only
	// RUN_ERROR or a new RUN_STARTED may follow; after RUN_ERROR only a new
	// RUN_STARTED.
	RuleRunEnded Rule = iota + 1
	// RuleDuplicateRunStarted: RUN_STARTED while a run is active. Unlike
	// the Rust crate, which forbids any second RUN_STARTED, a new run may
	// start after a terminal event, as the 1.0 client allows (one stream may
	// carry several runs); the runner itself never emits two.
	RuleDuplicateRunStarted
	// RuleDuplicateStart: opening a message, reasoning span or message, tool
	// call, step or subagent that is already open.
	RuleDuplicateStart
	// RuleNotOpen: content or a terminator for something that is not open.
	RuleNotOpen
	// RuleUnknownID: a tool result for a call id never introduced in the run.
	RuleUnknownID
	// RuleOutOfOrder: a tool result before its call's TOOL_CALL_END.
	RuleOutOfOrder
	// RuleOpenAtFinish: RUN_FINISHED while anything is open, a subagent
	// included. RUN_ERROR is exempt.
	RuleOpenAtFinish
	// RuleOwnerMismatch: a continuation, terminator or re-open naming a
	// subagent other than the one that owns the entity (ids named by
	// RUN_STARTED's input messages, a MESSAGES_SNAPSHOT or a tool result
	// included); a tool call tagged differently from its parent message's
	// owner; a step finished by another owner.
	RuleOwnerMismatch
	// RuleFirstEvent: a stream whose first event is not RUN_STARTED (or
	// RUN_ERROR).
	RuleFirstEvent
	// RuleUnknownParent: SUBAGENT_STARTED naming a parentSubagentRunId not
	// started earlier in the run.
	RuleUnknownParent
	// RuleReusedID: a subagent run id started again in the run that
	// already finished it: one id names one invocation.
	RuleReusedID
	// RuleTypeWithoutValue: an encryptedValueType (AG-UI 1.1) without an
	// encryptedValue beside it, on REASONING_ENCRYPTED_VALUE or on a message
	// or tool call of MESSAGES_SNAPSHOT or RUN_STARTED's input. Unlike the
	// other rules it is reported with code [CodeTypeWithoutValue].
	RuleTypeWithoutValue
)

// String returns the rule's kebab-case name, such as "not-open".
func (r Rule) String() string {
	switch r {
	case RuleRunEnded:
		return "run-ended"
	case RuleDuplicateRunStarted:
		return "duplicate-run-started"
	case RuleDuplicateStart:
		return "duplicate-start"
	case RuleNotOpen:
		return "not-open"
	case RuleUnknownID:
		return "unknown-id"
	case RuleOutOfOrder:
		return "out-of-order"
	case RuleOpenAtFinish:
		return "open-at-finish"
	case RuleOwnerMismatch:
		return "owner-mismatch"
	case RuleFirstEvent:
		return "first-event"
	case RuleUnknownParent:
		return "unknown-parent"
	case RuleReusedID:
		return "reused-id"
	case RuleTypeWithoutValue:
		return "type-without-value"
	}
	return "rule(" + strconv.Itoa(int(r)) + ")"
}

// Describe states the rule in one sentence, written to read inside an error
// message (lower case, no final period).
func (r Rule) Describe() string {
	switch r {
	case RuleRunEnded:
		return "after RUN_FINISHED only RUN_ERROR or a new RUN_STARTED may follow, and after RUN_ERROR only a new RUN_STARTED"
	case RuleDuplicateRunStarted:
		return "a run must end with RUN_FINISHED or RUN_ERROR before the next RUN_STARTED"
	case RuleDuplicateStart:
		return "an id that is already open cannot be opened again"
	case RuleNotOpen:
		return "content and terminators require a matching start"
	case RuleUnknownID:
		return "a tool result must name a tool call introduced in this run"
	case RuleOutOfOrder:
		return "a tool result must follow its call's TOOL_CALL_END"
	case RuleOpenAtFinish:
		return "RUN_FINISHED requires every step, message, reasoning block, tool call and subagent to be closed"
	case RuleOwnerMismatch:
		return "only the owner that opened an entity may continue, close or reopen it"
	case RuleFirstEvent:
		return "a run must begin with RUN_STARTED"
	case RuleUnknownParent:
		return "a parent subagent must have been started earlier in the run"
	case RuleReusedID:
		return "a subagent id names one invocation per run"
	case RuleTypeWithoutValue:
		return "an encryptedValueType requires an encryptedValue beside it"
	}
	return "unknown rule"
}

// VerificationError reports an event the [Verifier] rejected: which event,
// which rule it breaks and the id involved. It reaches callers as the Err
// of an [*Error] with code PROTOCOL_VIOLATION ([CodeTypeWithoutValue] for
// [RuleTypeWithoutValue]); use errors.As to get it.
//
// A VerificationError is immutable and safe to share between goroutines.
type VerificationError struct {
	// Event is the type of the rejected event.
	Event EventType
	// Rule is the rule the event breaks.
	Rule Rule
	// ID names the entity involved: a message, tool call or subagent run
	// id, a step name, or the run id for the run-level rules.
	ID string
	// Detail says what was found, such as `message "msg-2" is not open`.
	Detail string
	// open is the dump of everything still open, appended to the message in
	// a debug build (build tag agui_debug) and empty otherwise.
	open string
}

// Error returns the event, the rule, its description and the detail, in the
// form `TEXT_MESSAGE_CONTENT breaks rule `not-open` (content and terminators
// require a matching start): message "msg-2" is not open`.
func (e *VerificationError) Error() string {
	return string(e.Event) + " breaks rule `" + e.Rule.String() + "` (" + e.Rule.Describe() + "): " + e.Detail + e.open
}
