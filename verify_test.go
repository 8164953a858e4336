//go:build !agui_noverify

package agui

import (
	"errors"
	"strings"
	"testing"
)

// Event builders for the verifier's tests; owner "" is the parent agent.
func evRunStarted(runID string) *RunStarted { return &RunStarted{ThreadID: "t", RunID: runID} }
func evRunFinished() *RunFinished           { return &RunFinished{ThreadID: "t", RunID: "r"} }
func evRunError() *RunError                 { return &RunError{Message: "boom", Code: "AGENT_ERROR"} }
func evMsgStart(id, owner string) *TextMessageStart {
	return &TextMessageStart{Attribution: Attribution{owner}, MessageID: id, Role: RoleAssistant}
}
func evMsgContent(id, owner string) *TextMessageContent {
	return &TextMessageContent{Attribution: Attribution{owner}, MessageID: id, Delta: "x"}
}
func evMsgEnd(id, owner string) *TextMessageEnd {
	return &TextMessageEnd{Attribution: Attribution{owner}, MessageID: id}
}
func evCallStart(id, parent, owner string) *ToolCallStart {
	return &ToolCallStart{Attribution: Attribution{owner}, ToolCallID: id, ToolCallName: "search", ParentMessageID: parent}
}
func evCallArgs(id, owner string) *ToolCallArgs {
	return &ToolCallArgs{Attribution: Attribution{owner}, ToolCallID: id, Delta: "{}"}
}
func evCallEnd(id, owner string) *ToolCallEnd {
	return &ToolCallEnd{Attribution: Attribution{owner}, ToolCallID: id}
}
func evCallResult(msgID, callID, owner string) *ToolCallResult {
	return &ToolCallResult{Attribution: Attribution{owner}, MessageID: msgID, ToolCallID: callID, Content: TextContent("ok")}
}
func evSpanStart(id, owner string) *ReasoningStart {
	return &ReasoningStart{Attribution: Attribution{owner}, MessageID: id}
}
func evSpanEnd(id, owner string) *ReasoningEnd {
	return &ReasoningEnd{Attribution: Attribution{owner}, MessageID: id}
}
func evThoughtStart(id, owner string) *ReasoningMessageStart {
	return &ReasoningMessageStart{Attribution: Attribution{owner}, MessageID: id}
}
func evThoughtContent(id, owner string) *ReasoningMessageContent {
	return &ReasoningMessageContent{Attribution: Attribution{owner}, MessageID: id, Delta: "hmm"}
}
func evThoughtEnd(id, owner string) *ReasoningMessageEnd {
	return &ReasoningMessageEnd{Attribution: Attribution{owner}, MessageID: id}
}
func evStepStart(name, owner string) *StepStarted {
	return &StepStarted{Attribution: Attribution{owner}, StepName: name}
}
func evStepEnd(name, owner string) *StepFinished {
	return &StepFinished{Attribution: Attribution{owner}, StepName: name}
}
func evSubStart(id, parent string) *SubagentStarted {
	return &SubagentStarted{SubagentRunID: id, Name: "helper", ParentSubagentRunID: parent}
}
func evSubEnd(id string) *SubagentFinished { return &SubagentFinished{SubagentRunID: id} }
func evSubFail(id string) *SubagentError   { return &SubagentError{SubagentRunID: id, Message: "failed"} }

// A run whose input carries history: a user message, and an assistant
// message of subagent s1 with a tool call the client has answered.
func evRunWithHistory() *RunStarted {
	in := NewInput("t", "r")
	in.Messages = []Message{
		&UserMessage{ID: "u1", Content: TextContent("hi")},
		&AssistantMessage{ID: "a1", SubagentRunID: "s1", ToolCalls: []ToolCall{{ID: "tc-old", Function: FunctionCall{Name: "search"}}}},
	}
	return &RunStarted{ThreadID: "t", RunID: "r", Input: in}
}

func evSnapshot(msgs ...Message) *MessagesSnapshot { return &MessagesSnapshot{Messages: msgs} }

type verifyCase struct {
	name   string
	rule   Rule
	events []Event
	// For a failing stream, the last event is rejected with rule, and
	// names id; every earlier event is accepted. A passing stream has
	// fails false.
	fails bool
	id    string
}

func verifyPass(name string, rule Rule, events ...Event) verifyCase {
	return verifyCase{name: name, rule: rule, events: events}
}

func verifyFail(name string, rule Rule, id string, events ...Event) verifyCase {
	return verifyCase{name: name, rule: rule, events: events, fails: true, id: id}
}

var evRun = evRunStarted("r")

var verifyCases = []verifyCase{
	// RunEnded
	verifyPass("RUN_ERROR after RUN_FINISHED, then a new run", RuleRunEnded, evRun, evRunFinished(), evRunError(), evRunStarted("r2"), evRunFinished()),
	verifyFail("event after RUN_FINISHED", RuleRunEnded, "r", evRun, evRunFinished(), evMsgStart("m", "")),
	verifyFail("second RUN_FINISHED", RuleRunEnded, "r", evRun, evRunFinished(), evRunFinished()),
	verifyFail("event after RUN_ERROR", RuleRunEnded, "r", evRun, evRunError(), evMsgContent("m", "")),
	verifyFail("second RUN_ERROR", RuleRunEnded, "r", evRun, evRunError(), evRunError()),

	// DuplicateRunStarted
	verifyPass("two runs one after the other", RuleDuplicateRunStarted, evRun, evRunFinished(), evRunStarted("r2"), evRunFinished()),
	verifyPass("a run after an errored run", RuleDuplicateRunStarted, evRun, evRunError(), evRunStarted("r2"), evRunFinished()),
	verifyFail("RUN_STARTED while a run is active", RuleDuplicateRunStarted, "r", evRun, evRunStarted("r2")),

	// DuplicateStart
	verifyPass("message reopened by its owner after its end", RuleDuplicateStart,
		evRun, evMsgStart("m", "s1"), evMsgEnd("m", "s1"), evMsgStart("m", "s1"), evMsgEnd("m", ""), evRunFinished()),
	verifyPass("one id names a reasoning span and a reasoning message", RuleDuplicateStart,
		evRun, evSpanStart("r1", ""), evThoughtStart("r1", ""), evThoughtContent("r1", ""), evThoughtEnd("r1", ""), evSpanEnd("r1", ""),
		&ReasoningEncryptedValue{Subtype: EncryptedMessage, EntityID: "r1", EncryptedValue: "enc"}, evRunFinished()),
	verifyPass("the parent and a subagent run a step of the same name", RuleDuplicateStart,
		evRun, evStepStart("tools", ""), evStepStart("tools", "s1"), evStepEnd("tools", "s1"), evStepEnd("tools", ""), evRunFinished()),
	verifyPass("two messages open at once", RuleDuplicateStart,
		evRun, evMsgStart("m1", ""), evMsgStart("m2", ""), evMsgContent("m1", ""), evMsgEnd("m2", ""), evMsgEnd("m1", ""), evRunFinished()),
	verifyFail("message started twice", RuleDuplicateStart, "m", evRun, evMsgStart("m", ""), evMsgStart("m", "")),
	verifyFail("message started twice by different owners", RuleDuplicateStart, "m", evRun, evMsgStart("m", "s1"), evMsgStart("m", "s2")),
	verifyFail("tool call started twice", RuleDuplicateStart, "tc", evRun, evCallStart("tc", "", ""), evCallStart("tc", "", "")),
	verifyFail("reasoning span started twice", RuleDuplicateStart, "r1", evRun, evSpanStart("r1", ""), evSpanStart("r1", "")),
	verifyFail("reasoning message started twice", RuleDuplicateStart, "r1", evRun, evThoughtStart("r1", ""), evThoughtStart("r1", "")),
	verifyFail("step started twice by one owner", RuleDuplicateStart, "plan", evRun, evStepStart("plan", "s1"), evStepStart("plan", "s1")),
	verifyFail("subagent started twice while active", RuleDuplicateStart, "s1", evRun, evSubStart("s1", ""), evSubStart("s1", "")),

	// NotOpen
	verifyPass("content and end between start and end", RuleNotOpen,
		evRun, evMsgStart("msg-1", ""), evMsgContent("msg-1", ""), evMsgEnd("msg-1", ""),
		evCallStart("tc", "msg-1", ""), evCallArgs("tc", ""), evCallEnd("tc", ""),
		evSpanStart("r", ""), evThoughtStart("r", ""), evThoughtContent("r", ""), evThoughtEnd("r", ""), evSpanEnd("r", ""),
		evStepStart("plan", ""), evStepEnd("plan", ""),
		evSubStart("s1", ""), evSubEnd("s1"), evSubStart("s2", ""), evSubFail("s2"), evRunFinished()),
	verifyFail("content for a message never started", RuleNotOpen, "msg-2", evRun, evMsgStart("msg-1", ""), evMsgContent("msg-2", "")),
	verifyFail("content after the message ended", RuleNotOpen, "m", evRun, evMsgStart("m", ""), evMsgEnd("m", ""), evMsgContent("m", "")),
	verifyFail("message ended twice", RuleNotOpen, "m", evRun, evMsgStart("m", ""), evMsgEnd("m", ""), evMsgEnd("m", "")),
	verifyFail("content for a message known only from history", RuleNotOpen, "u1", evRunWithHistory(), evMsgContent("u1", "")),
	verifyFail("args for a tool call never started", RuleNotOpen, "tc", evRun, evCallArgs("tc", "")),
	verifyFail("args after the tool call ended", RuleNotOpen, "tc", evRun, evCallStart("tc", "", ""), evCallEnd("tc", ""), evCallArgs("tc", "")),
	verifyFail("end of a tool call never started", RuleNotOpen, "tc", evRun, evCallEnd("tc", "")),
	verifyFail("reasoning content without a start", RuleNotOpen, "r", evRun, evSpanStart("r", ""), evThoughtContent("r", "")),
	verifyFail("reasoning message end without a start", RuleNotOpen, "r", evRun, evThoughtEnd("r", "")),
	verifyFail("reasoning end without a start", RuleNotOpen, "r", evRun, evThoughtStart("r", ""), evSpanEnd("r", "")),
	verifyFail("step finished that never started", RuleNotOpen, "plan", evRun, evStepEnd("plan", "")),
	verifyFail("subagent finished that never started", RuleNotOpen, "s1", evRun, evSubEnd("s1")),
	verifyFail("subagent failed that never started", RuleNotOpen, "s1", evRun, evSubFail("s1")),
	verifyFail("subagent finished twice", RuleNotOpen, "s1", evRun, evSubStart("s1", ""), evSubEnd("s1"), evSubFail("s1")),

	// UnknownID
	verifyPass("result for an ended call", RuleUnknownID, evRun, evCallStart("tc", "", ""), evCallEnd("tc", ""), evCallResult("tm", "tc", ""), evRunFinished()),
	verifyPass("result for a call from the input's history", RuleUnknownID, evRunWithHistory(), evCallResult("tm", "tc-old", ""), evRunFinished()),
	verifyPass("result for a call from a messages snapshot", RuleUnknownID,
		evRun, evSnapshot(&AssistantMessage{ID: "a", ToolCalls: []ToolCall{{ID: "tc-snap"}}}), evCallResult("tm", "tc-snap", ""), evRunFinished()),
	verifyFail("result for a call never started", RuleUnknownID, "tc", evRun, evCallResult("tm", "tc", "")),
	verifyFail("result for a call of the previous run", RuleUnknownID, "tc",
		evRun, evCallStart("tc", "", ""), evCallEnd("tc", ""), evRunFinished(), evRunStarted("r2"), evCallResult("tm", "tc", "")),

	// OutOfOrder
	verifyPass("two results for one ended call", RuleOutOfOrder,
		evRun, evCallStart("tc", "", ""), evCallEnd("tc", ""), evCallResult("tm1", "tc", ""), evCallResult("tm2", "tc", ""), evRunFinished()),
	verifyFail("result before TOOL_CALL_END", RuleOutOfOrder, "tc", evRun, evCallStart("tc", "", ""), evCallArgs("tc", ""), evCallResult("tm", "tc", "")),

	// OpenAtFinish
	verifyPass("RUN_ERROR with everything open", RuleOpenAtFinish,
		evRun, evStepStart("plan", ""), evMsgStart("m", ""), evCallStart("tc", "", ""), evSpanStart("r", ""), evThoughtStart("r", ""), evSubStart("s1", ""), evRunError()),
	verifyPass("a subagent may finish with its own message open", RuleOpenAtFinish,
		evRun, evSubStart("s1", ""), evMsgStart("m", "s1"), evSubEnd("s1"), evMsgEnd("m", "s1"), evRunFinished()),
	verifyFail("step open at finish", RuleOpenAtFinish, "plan", evRun, evStepStart("plan", "s1"), evRunFinished()),
	verifyFail("message open at finish", RuleOpenAtFinish, "m", evRun, evMsgStart("m", ""), evRunFinished()),
	verifyFail("reasoning message open at finish", RuleOpenAtFinish, "r", evRun, evSpanStart("r", ""), evThoughtStart("r", ""), evRunFinished()),
	verifyFail("reasoning span open at finish", RuleOpenAtFinish, "r", evRun, evSpanStart("r", ""), evRunFinished()),
	verifyFail("tool call open at finish", RuleOpenAtFinish, "tc", evRun, evCallStart("tc", "", ""), evRunFinished()),
	verifyFail("subagent active at finish", RuleOpenAtFinish, "s1", evRun, evSubStart("s1", ""), evRunFinished()),
	verifyFail("steps are reported before messages", RuleOpenAtFinish, "b",
		evRun, evMsgStart("a", ""), evStepStart("c", ""), evStepStart("b", ""), evRunFinished()),

	// OwnerMismatch
	verifyPass("untagged continuation of a subagent's entities", RuleOwnerMismatch,
		evRun, evMsgStart("m", "s1"), evMsgContent("m", ""), evMsgEnd("m", ""),
		evCallStart("tc", "m", "s1"), evCallArgs("tc", ""), evCallEnd("tc", ""),
		evThoughtStart("r", "s1"), evThoughtContent("r", ""), evThoughtEnd("r", ""), evRunFinished()),
	verifyPass("tagged tool call under its own subagent's message", RuleOwnerMismatch,
		evRun, evMsgStart("m", "s1"), evCallStart("tc", "m", "s1"), evCallEnd("tc", "s1"), evMsgEnd("m", "s1"), evRunFinished()),
	verifyPass("untagged tool call inherits its parent message's owner", RuleOwnerMismatch,
		evRun, evMsgStart("m", "s1"), evCallStart("tc", "m", ""), evCallArgs("tc", "s1"), evCallEnd("tc", "s1"), evMsgEnd("m", "s1"), evRunFinished()),
	verifyPass("activity delta by its owner", RuleOwnerMismatch,
		evRun, &ActivitySnapshot{Attribution: Attribution{"s1"}, MessageID: "act", ActivityType: "plan"},
		&ActivityDelta{Attribution: Attribution{"s1"}, MessageID: "act", ActivityType: "plan"},
		&ActivityDelta{MessageID: "act", ActivityType: "plan"}, evRunFinished()),
	verifyPass("a replacing activity snapshot changes the owner", RuleOwnerMismatch,
		evRun, &ActivitySnapshot{Attribution: Attribution{"s1"}, MessageID: "act", ActivityType: "plan"},
		&ActivitySnapshot{Attribution: Attribution{"s2"}, MessageID: "act", ActivityType: "plan"},
		&ActivityDelta{Attribution: Attribution{"s2"}, MessageID: "act", ActivityType: "plan"}, evRunFinished()),
	verifyPass("encrypted value tagged by the tool call's owner", RuleOwnerMismatch,
		evRun, evCallStart("tc", "", "s1"), evCallEnd("tc", "s1"),
		&ReasoningEncryptedValue{Attribution: Attribution{"s1"}, Subtype: EncryptedToolCall, EntityID: "tc", EncryptedValue: "e"}, evRunFinished()),
	verifyFail("content tagged by another subagent", RuleOwnerMismatch, "m", evRun, evMsgStart("m", "s1"), evMsgContent("m", "s2")),
	verifyFail("tagged content of a parent's message", RuleOwnerMismatch, "m", evRun, evMsgStart("m", ""), evMsgContent("m", "s1")),
	verifyFail("end tagged by another subagent", RuleOwnerMismatch, "m", evRun, evMsgStart("m", "s1"), evMsgEnd("m", "s2")),
	verifyFail("tool args tagged by another subagent", RuleOwnerMismatch, "tc", evRun, evCallStart("tc", "", "s1"), evCallArgs("tc", "s2")),
	verifyFail("tool call end tagged by another subagent", RuleOwnerMismatch, "tc", evRun, evCallStart("tc", "", "s1"), evCallEnd("tc", "s2")),
	verifyFail("reasoning content tagged by another subagent", RuleOwnerMismatch, "r", evRun, evThoughtStart("r", "s1"), evThoughtContent("r", "s2")),
	verifyFail("reasoning end tagged by another subagent", RuleOwnerMismatch, "r", evRun, evSpanStart("r", "s1"), evSpanEnd("r", "s2")),
	verifyFail("tagged tool call under a parent's message", RuleOwnerMismatch, "tc", evRun, evMsgStart("m", ""), evCallStart("tc", "m", "s1")),
	verifyFail("step finished by another owner", RuleOwnerMismatch, "tools", evRun, evStepStart("tools", "s1"), evStepEnd("tools", "")),
	verifyFail("activity delta by another owner", RuleOwnerMismatch, "act",
		evRun, &ActivitySnapshot{Attribution: Attribution{"s1"}, MessageID: "act", ActivityType: "plan"},
		&ActivityDelta{Attribution: Attribution{"s2"}, MessageID: "act", ActivityType: "plan"}),
	verifyFail("encrypted value for another owner's message", RuleOwnerMismatch, "m",
		evRun, evMsgStart("m", ""), evMsgEnd("m", ""),
		&ReasoningEncryptedValue{Attribution: Attribution{"s1"}, Subtype: EncryptedMessage, EntityID: "m", EncryptedValue: "e"}),
	verifyFail("encrypted value for another owner's reasoning message", RuleOwnerMismatch, "r",
		evRun, evThoughtStart("r", "s2"), evThoughtEnd("r", "s2"),
		&ReasoningEncryptedValue{Attribution: Attribution{"s1"}, Subtype: EncryptedMessage, EntityID: "r", EncryptedValue: "e"}),
	verifyFail("encrypted value for another owner's tool call", RuleOwnerMismatch, "tc",
		evRun, evCallStart("tc", "", ""), evCallEnd("tc", ""),
		&ReasoningEncryptedValue{Attribution: Attribution{"s1"}, Subtype: EncryptedToolCall, EntityID: "tc", EncryptedValue: "e"}),

	// FirstEvent
	verifyPass("RUN_ERROR may come first", RuleFirstEvent, evRunError(), evRun, evRunFinished()),
	verifyPass("chunks, state and custom events inside a run", RuleFirstEvent,
		evRun, &TextMessageChunk{MessageID: "c", Delta: "hi"}, &ToolCallChunk{ToolCallID: "tcc", ToolCallName: "f"},
		&ReasoningMessageChunk{MessageID: "rc"}, &StateSnapshot{}, &StateDelta{}, &Raw{}, &Custom{Name: "x"}, evRunFinished()),
	verifyFail("a message before RUN_STARTED", RuleFirstEvent, "", evMsgStart("m", "")),
	verifyFail("RUN_FINISHED first", RuleFirstEvent, "", evRunFinished()),
	verifyFail("state before RUN_STARTED", RuleFirstEvent, "", &StateSnapshot{}),

	// UnknownParent
	verifyPass("nested subagent, closed in any order", RuleUnknownParent,
		evRun, evSubStart("s1", ""), evSubStart("s2", "s1"), evSubEnd("s1"), evSubStart("s3", "s1"), evSubEnd("s2"), evSubEnd("s3"), evRunFinished()),
	verifyFail("parent never started", RuleUnknownParent, "nope", evRun, evSubStart("s1", "nope")),
	verifyFail("parent started in the previous run", RuleUnknownParent, "s1",
		evRun, evSubStart("s1", ""), evSubEnd("s1"), evRunFinished(), evRunStarted("r2"), evSubStart("s2", "s1")),

	// ReusedID
	verifyPass("a subagent id again in the next run", RuleReusedID,
		evRun, evSubStart("s1", ""), evSubEnd("s1"), evRunFinished(), evRunStarted("r2"), evSubStart("s1", ""), evSubEnd("s1"), evRunFinished()),
	verifyPass("the parent reopens a user message id from the input", RuleOwnerMismatch,
		evRunWithHistory(), evMsgStart("u1", ""), evMsgEnd("u1", ""), evRunFinished()),
	verifyPass("a subagent reopens its own message from the input", RuleOwnerMismatch,
		evRunWithHistory(), evMsgStart("a1", "s1"), evMsgEnd("a1", "s1"), evRunFinished()),
	verifyPass("ids of the previous run are free", RuleOwnerMismatch,
		evRun, evMsgStart("m", "s1"), evMsgEnd("m", "s1"), evRunFinished(), evRunStarted("r2"), evMsgStart("m", "s2"), evMsgEnd("m", "s2"), evRunFinished()),
	// TypeWithoutValue
	verifyPass("typed values, and a value without a type", RuleTypeWithoutValue,
		&RunStarted{ThreadID: "t", RunID: "r", Input: &RunAgentInput{Messages: []Message{
			&ReasoningMessage{ID: "r0", EncryptedValue: "v", EncryptedValueType: "acme.sig"}}}},
		evSnapshot(&AssistantMessage{ID: "a1", EncryptedValue: "v", ToolCalls: []ToolCall{{ID: "c1", EncryptedValue: "v", EncryptedValueType: "acme.call"}}}),
		&ReasoningEncryptedValue{Subtype: EncryptedMessage, EntityID: "r0", EncryptedValue: "v", EncryptedValueType: "acme.sig"},
		&ReasoningEncryptedValue{Subtype: EncryptedToolCall, EntityID: "c1", EncryptedValue: "v"}, evRunFinished()),
	verifyFail("a type without a value", RuleTypeWithoutValue, "r0",
		evRun, &ReasoningEncryptedValue{Subtype: EncryptedMessage, EntityID: "r0", EncryptedValueType: "acme.sig"}),
	verifyFail("a snapshot's tool call with a type and no value", RuleTypeWithoutValue, "c1",
		evRun, evSnapshot(&AssistantMessage{ID: "a1", ToolCalls: []ToolCall{{ID: "c1", EncryptedValueType: "acme.call"}}})),
	verifyFail("an input message with a type and no value", RuleTypeWithoutValue, "u1",
		&RunStarted{ThreadID: "t", RunID: "r", Input: &RunAgentInput{Messages: []Message{
			&UserMessage{ID: "u1", Content: TextContent("hi"), EncryptedValueType: "acme.user"}}}}),
	verifyFail("a subagent id reused after it finished", RuleReusedID, "s1", evRun, evSubStart("s1", ""), evSubEnd("s1"), evSubStart("s1", "")),
	verifyFail("a subagent id reused after it failed", RuleReusedID, "s1", evRun, evSubStart("s1", ""), evSubFail("s1"), evSubStart("s1", "")),
	verifyFail("a message id reopened by another owner", RuleOwnerMismatch, "m", evRun, evMsgStart("m", "s1"), evMsgEnd("m", "s1"), evMsgStart("m", "")),
	verifyFail("a message id from a snapshot opened by another owner", RuleOwnerMismatch, "m1",
		evRun, evSnapshot(&AssistantMessage{ID: "m1", SubagentRunID: "s1"}), evMsgStart("m1", "s2")),
	verifyFail("a message id from the input opened by another owner", RuleOwnerMismatch, "u1", evRunWithHistory(), evMsgStart("u1", "s1")),
	verifyFail("a message id from the input opened by the parent", RuleOwnerMismatch, "a1", evRunWithHistory(), evMsgStart("a1", "")),
	verifyFail("a tool result's message id opened by another owner", RuleOwnerMismatch, "tm",
		evRun, evCallStart("tc", "", ""), evCallEnd("tc", ""), evCallResult("tm", "tc", "s1"), evMsgStart("tm", "")),
	verifyFail("a tool call id reused by another owner", RuleOwnerMismatch, "tc",
		evRun, evCallStart("tc", "", "s1"), evCallEnd("tc", "s1"), evCallStart("tc", "", "s2")),
	verifyFail("a tool call id from the input reused by another owner", RuleOwnerMismatch, "tc-old", evRunWithHistory(), evCallStart("tc-old", "", "s2")),
	verifyFail("a reasoning message id from a snapshot opened by another owner", RuleOwnerMismatch, "r",
		evRun, evSnapshot(&ReasoningMessage{ID: "r", SubagentRunID: "s1"}), evThoughtStart("r", "")),
}

func TestVerifierRules(t *testing.T) {
	for _, c := range verifyCases {
		t.Run(c.rule.String()+"/"+c.name, func(t *testing.T) {
			v := NewVerifier()
			last := len(c.events) - 1
			for i, ev := range c.events {
				err := v.Observe(ev)
				if !c.fails || i < last {
					if err != nil {
						t.Fatalf("event %d (%s) rejected: %v", i, ev.Type(), err)
					}
					continue
				}
				if err == nil {
					t.Fatalf("last event (%s) accepted, want rule %s", ev.Type(), c.rule)
				}
				var ve *VerificationError
				if !errors.As(err, &ve) {
					t.Fatalf("error %v (%T) holds no *VerificationError", err, err)
				}
				if ve.Rule != c.rule || ve.Event != ev.Type() || ve.ID != c.id {
					t.Errorf("got rule %s, event %s, id %q; want %s, %s, %q", ve.Rule, ve.Event, ve.ID, c.rule, ev.Type(), c.id)
				}
				want := CodeProtocolViolation
				if c.rule == RuleTypeWithoutValue {
					want = CodeTypeWithoutValue
				}
				if CodeOf(err) != want {
					t.Errorf("code %q, want %q", CodeOf(err), want)
				}
				if err.Error() != ve.Error() {
					t.Errorf("error message %q differs from the verification error's %q", err.Error(), ve.Error())
				}
			}
		})
	}
}

// Every rule has at least one passing and one failing stream.
func TestVerifierRulesCovered(t *testing.T) {
	passes, fails := map[Rule]int{}, map[Rule]int{}
	for _, c := range verifyCases {
		if c.fails {
			fails[c.rule]++
		} else {
			passes[c.rule]++
		}
	}
	for r := RuleRunEnded; r <= RuleTypeWithoutValue; r++ {
		if passes[r] == 0 || fails[r] == 0 {
			t.Errorf("rule %s: %d passing and %d failing streams, want at least one of each", r, passes[r], fails[r])
		}
	}
}

func TestVerifierMessage(t *testing.T) {
	v := NewVerifier()
	for _, ev := range []Event{evRun, evMsgStart("msg-1", "")} {
		if err := v.Observe(ev); err != nil {
			t.Fatal(err)
		}
	}
	err := v.Observe(evMsgContent("msg-2", ""))
	const want = "TEXT_MESSAGE_CONTENT breaks rule `not-open` (content and terminators require a matching start): message \"msg-2\" is not open"
	if got := err.Error(); !strings.HasPrefix(got, want) {
		t.Errorf("message\n%s\nwant prefix\n%s", got, want)
	}
}

func TestVerifierMessageDetails(t *testing.T) {
	for _, c := range []struct {
		events []Event
		want   string
	}{
		{[]Event{evRun, evMsgStart("m", "s1"), evMsgContent("m", "s2")}, `message "m" belongs to subagent "s1", not subagent "s2"`},
		{[]Event{evRun, evMsgStart("m", ""), evMsgContent("m", "s2")}, `message "m" belongs to the parent agent, not subagent "s2"`},
		{[]Event{evRun, evMsgStart("m", ""), evCallStart("tc", "m", "s1")}, `tool call "tc" is tagged subagent "s1" but its parent message "m" belongs to the parent agent`},
		{[]Event{evRun, evStepStart("tools", "s1"), evStepEnd("tools", "")}, `step "tools" is open under subagent "s1", not the parent agent`},
		{[]Event{evRun, evStepEnd("tools", "s1")}, `step "tools" of subagent "s1" is not open`},
		{[]Event{evRun, evMsgStart("a", ""), evCallStart("b", "", ""), evRunFinished()}, `message "a" is still open (and 1 more)`},
		{[]Event{evRun, evStepStart("plan", "s1"), evRunFinished()}, `step "plan" of subagent "s1" is still open`},
		{[]Event{evRun, evCallResult("tm", "tc", "")}, `tool call "tc" was never started in this run`},
		{[]Event{evRun, evCallStart("tc", "", ""), evCallResult("tm", "tc", "")}, `tool call "tc" has not ended`},
		{[]Event{evRun, evSubStart("s1", ""), evSubEnd("s1"), evSubStart("s1", "")}, `subagent "s1" already ran in this run`},
		{[]Event{evRun, evSubStart("s1", "p")}, `parent subagent "p" was not started in this run`},
		{[]Event{evRun, evRunStarted("r2")}, `run "r" is still active`},
		{[]Event{evRun, evRunFinished(), evRunFinished()}, `run "r" has already finished`},
		{[]Event{evRun, evRunError(), evRunFinished()}, `run "r" has already errored`},
		{[]Event{evMsgStart("m", "")}, `the stream begins with TEXT_MESSAGE_START`},
	} {
		v := NewVerifier()
		var err error
		for _, ev := range c.events {
			if err = v.Observe(ev); err != nil {
				break
			}
		}
		var ve *VerificationError
		if !errors.As(err, &ve) {
			t.Errorf("want %q, got %v", c.want, err)
			continue
		}
		if ve.Detail != c.want {
			t.Errorf("detail %q, want %q", ve.Detail, c.want)
		}
	}
}

// A rejected event is not recorded: the stream goes on as if it had not
// been sent.
func TestVerifierRejectedEventNotRecorded(t *testing.T) {
	v := NewVerifier()
	steps := []struct {
		ev Event
		ok bool
	}{
		{evRun, true},
		{evSubStart("s2", "nope"), false},
		{evMsgStart("m", "s1"), true},
		{evMsgStart("m", "s2"), false},
		{evMsgContent("m", "s1"), true},
		{evCallStart("tc", "m", "s2"), false},
		{evCallStart("tc", "m", ""), true},
		{evCallResult("tm", "tc", ""), false},
		{evCallEnd("tc", ""), true},
		{evMsgEnd("m", ""), true},
		{evRunFinished(), true},
		{evRunFinished(), false},
		{evRunStarted("r2"), true},
		{evSubStart("s2", ""), true}, // not taken by the rejected start above
		{evSubEnd("s2"), true},
		{evRunFinished(), true},
	}
	for i, s := range steps {
		if err := v.Observe(s.ev); (err == nil) != s.ok {
			t.Fatalf("step %d (%s): error %v, want accepted=%v", i, s.ev.Type(), err, s.ok)
		}
	}
}

func TestVerifierZeroValue(t *testing.T) {
	var v Verifier
	for _, ev := range []Event{evRun, evStepStart("s", ""), evStepEnd("s", ""), evRunFinished()} {
		if err := v.Observe(ev); err != nil {
			t.Fatal(err)
		}
	}
}

func TestVerifierNilEvent(t *testing.T) {
	for _, events := range [][]Event{{nil}, {evRun, nil}} {
		v := NewVerifier()
		var err error
		for _, ev := range events {
			err = v.Observe(ev)
		}
		if CodeOf(err) != CodeProtocol {
			t.Errorf("nil event: %v, want a PROTOCOL error", err)
		}
	}
}

// Content for an open message, the hot path, does not allocate.
func TestVerifierContentDoesNotAllocate(t *testing.T) {
	v := NewVerifier()
	for _, ev := range []Event{evRun, evMsgStart("m", "s1"), evCallStart("tc", "m", "")} {
		if err := v.Observe(ev); err != nil {
			t.Fatal(err)
		}
	}
	content, args := evMsgContent("m", "s1"), evCallArgs("tc", "")
	allocs := testing.AllocsPerRun(100, func() {
		if v.Observe(content) != nil || v.Observe(args) != nil {
			t.Fatal("rejected")
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per content event, want 0", allocs)
	}
}
