//go:build !agui_noverify

package core

import (
	"errors"
	"strings"
	"testing"
)

// Event builders for the verifier's tests; owner "" is the parent agent.
func runStarted(runID string) *RunStarted { return &RunStarted{ThreadID: "t", RunID: runID} }
func runFinished() *RunFinished           { return &RunFinished{ThreadID: "t", RunID: "r"} }
func runError() *RunError                 { return &RunError{Message: "boom", Code: "AGENT_ERROR"} }
func msgStart(id, owner string) *TextMessageStart {
	return &TextMessageStart{Attribution: Attribution{owner}, MessageID: id, Role: RoleAssistant}
}
func msgContent(id, owner string) *TextMessageContent {
	return &TextMessageContent{Attribution: Attribution{owner}, MessageID: id, Delta: "x"}
}
func msgEnd(id, owner string) *TextMessageEnd {
	return &TextMessageEnd{Attribution: Attribution{owner}, MessageID: id}
}
func callStart(id, parent, owner string) *ToolCallStart {
	return &ToolCallStart{Attribution: Attribution{owner}, ToolCallID: id, ToolCallName: "search", ParentMessageID: parent}
}
func callArgs(id, owner string) *ToolCallArgs {
	return &ToolCallArgs{Attribution: Attribution{owner}, ToolCallID: id, Delta: "{}"}
}
func callEnd(id, owner string) *ToolCallEnd {
	return &ToolCallEnd{Attribution: Attribution{owner}, ToolCallID: id}
}
func callResult(msgID, callID, owner string) *ToolCallResult {
	return &ToolCallResult{Attribution: Attribution{owner}, MessageID: msgID, ToolCallID: callID, Content: TextContent("ok")}
}
func spanStart(id, owner string) *ReasoningStart {
	return &ReasoningStart{Attribution: Attribution{owner}, MessageID: id}
}
func spanEnd(id, owner string) *ReasoningEnd {
	return &ReasoningEnd{Attribution: Attribution{owner}, MessageID: id}
}
func thoughtStart(id, owner string) *ReasoningMessageStart {
	return &ReasoningMessageStart{Attribution: Attribution{owner}, MessageID: id}
}
func thoughtContent(id, owner string) *ReasoningMessageContent {
	return &ReasoningMessageContent{Attribution: Attribution{owner}, MessageID: id, Delta: "hmm"}
}
func thoughtEnd(id, owner string) *ReasoningMessageEnd {
	return &ReasoningMessageEnd{Attribution: Attribution{owner}, MessageID: id}
}
func stepStart(name, owner string) *StepStarted {
	return &StepStarted{Attribution: Attribution{owner}, StepName: name}
}
func stepEnd(name, owner string) *StepFinished {
	return &StepFinished{Attribution: Attribution{owner}, StepName: name}
}
func subStart(id, parent string) *SubagentStarted {
	return &SubagentStarted{SubagentRunID: id, Name: "helper", ParentSubagentRunID: parent}
}
func subEnd(id string) *SubagentFinished { return &SubagentFinished{SubagentRunID: id} }
func subFail(id string) *SubagentError   { return &SubagentError{SubagentRunID: id, Message: "failed"} }

// A run whose input carries history: a user message, and an assistant
// message of subagent s1 with a tool call the client has answered.
func runWithHistory() *RunStarted {
	in := NewInput("t", "r")
	in.Messages = []Message{
		&UserMessage{ID: "u1", Content: TextContent("hi")},
		&AssistantMessage{ID: "a1", SubagentRunID: "s1", ToolCalls: []ToolCall{{ID: "tc-old", Function: FunctionCall{Name: "search"}}}},
	}
	return &RunStarted{ThreadID: "t", RunID: "r", Input: in}
}

func snapshot(msgs ...Message) *MessagesSnapshot { return &MessagesSnapshot{Messages: msgs} }

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

func pass(name string, rule Rule, events ...Event) verifyCase {
	return verifyCase{name: name, rule: rule, events: events}
}

func fail(name string, rule Rule, id string, events ...Event) verifyCase {
	return verifyCase{name: name, rule: rule, events: events, fails: true, id: id}
}

var rs = runStarted("r")

var verifyCases = []verifyCase{
	// RunEnded
	pass("RUN_ERROR after RUN_FINISHED, then a new run", RuleRunEnded, rs, runFinished(), runError(), runStarted("r2"), runFinished()),
	fail("event after RUN_FINISHED", RuleRunEnded, "r", rs, runFinished(), msgStart("m", "")),
	fail("second RUN_FINISHED", RuleRunEnded, "r", rs, runFinished(), runFinished()),
	fail("event after RUN_ERROR", RuleRunEnded, "r", rs, runError(), msgContent("m", "")),
	fail("second RUN_ERROR", RuleRunEnded, "r", rs, runError(), runError()),

	// DuplicateRunStarted
	pass("two runs one after the other", RuleDuplicateRunStarted, rs, runFinished(), runStarted("r2"), runFinished()),
	pass("a run after an errored run", RuleDuplicateRunStarted, rs, runError(), runStarted("r2"), runFinished()),
	fail("RUN_STARTED while a run is active", RuleDuplicateRunStarted, "r", rs, runStarted("r2")),

	// DuplicateStart
	pass("message reopened by its owner after its end", RuleDuplicateStart,
		rs, msgStart("m", "s1"), msgEnd("m", "s1"), msgStart("m", "s1"), msgEnd("m", ""), runFinished()),
	pass("one id names a reasoning span and a reasoning message", RuleDuplicateStart,
		rs, spanStart("r1", ""), thoughtStart("r1", ""), thoughtContent("r1", ""), thoughtEnd("r1", ""), spanEnd("r1", ""),
		&ReasoningEncryptedValue{Subtype: EncryptedMessage, EntityID: "r1", EncryptedValue: "enc"}, runFinished()),
	pass("the parent and a subagent run a step of the same name", RuleDuplicateStart,
		rs, stepStart("tools", ""), stepStart("tools", "s1"), stepEnd("tools", "s1"), stepEnd("tools", ""), runFinished()),
	pass("two messages open at once", RuleDuplicateStart,
		rs, msgStart("m1", ""), msgStart("m2", ""), msgContent("m1", ""), msgEnd("m2", ""), msgEnd("m1", ""), runFinished()),
	fail("message started twice", RuleDuplicateStart, "m", rs, msgStart("m", ""), msgStart("m", "")),
	fail("message started twice by different owners", RuleDuplicateStart, "m", rs, msgStart("m", "s1"), msgStart("m", "s2")),
	fail("tool call started twice", RuleDuplicateStart, "tc", rs, callStart("tc", "", ""), callStart("tc", "", "")),
	fail("reasoning span started twice", RuleDuplicateStart, "r1", rs, spanStart("r1", ""), spanStart("r1", "")),
	fail("reasoning message started twice", RuleDuplicateStart, "r1", rs, thoughtStart("r1", ""), thoughtStart("r1", "")),
	fail("step started twice by one owner", RuleDuplicateStart, "plan", rs, stepStart("plan", "s1"), stepStart("plan", "s1")),
	fail("subagent started twice while active", RuleDuplicateStart, "s1", rs, subStart("s1", ""), subStart("s1", "")),

	// NotOpen
	pass("content and end between start and end", RuleNotOpen,
		rs, msgStart("msg-1", ""), msgContent("msg-1", ""), msgEnd("msg-1", ""),
		callStart("tc", "msg-1", ""), callArgs("tc", ""), callEnd("tc", ""),
		spanStart("r", ""), thoughtStart("r", ""), thoughtContent("r", ""), thoughtEnd("r", ""), spanEnd("r", ""),
		stepStart("plan", ""), stepEnd("plan", ""),
		subStart("s1", ""), subEnd("s1"), subStart("s2", ""), subFail("s2"), runFinished()),
	fail("content for a message never started", RuleNotOpen, "msg-2", rs, msgStart("msg-1", ""), msgContent("msg-2", "")),
	fail("content after the message ended", RuleNotOpen, "m", rs, msgStart("m", ""), msgEnd("m", ""), msgContent("m", "")),
	fail("message ended twice", RuleNotOpen, "m", rs, msgStart("m", ""), msgEnd("m", ""), msgEnd("m", "")),
	fail("content for a message known only from history", RuleNotOpen, "u1", runWithHistory(), msgContent("u1", "")),
	fail("args for a tool call never started", RuleNotOpen, "tc", rs, callArgs("tc", "")),
	fail("args after the tool call ended", RuleNotOpen, "tc", rs, callStart("tc", "", ""), callEnd("tc", ""), callArgs("tc", "")),
	fail("end of a tool call never started", RuleNotOpen, "tc", rs, callEnd("tc", "")),
	fail("reasoning content without a start", RuleNotOpen, "r", rs, spanStart("r", ""), thoughtContent("r", "")),
	fail("reasoning message end without a start", RuleNotOpen, "r", rs, thoughtEnd("r", "")),
	fail("reasoning end without a start", RuleNotOpen, "r", rs, thoughtStart("r", ""), spanEnd("r", "")),
	fail("step finished that never started", RuleNotOpen, "plan", rs, stepEnd("plan", "")),
	fail("subagent finished that never started", RuleNotOpen, "s1", rs, subEnd("s1")),
	fail("subagent failed that never started", RuleNotOpen, "s1", rs, subFail("s1")),
	fail("subagent finished twice", RuleNotOpen, "s1", rs, subStart("s1", ""), subEnd("s1"), subFail("s1")),

	// UnknownID
	pass("result for an ended call", RuleUnknownID, rs, callStart("tc", "", ""), callEnd("tc", ""), callResult("tm", "tc", ""), runFinished()),
	pass("result for a call from the input's history", RuleUnknownID, runWithHistory(), callResult("tm", "tc-old", ""), runFinished()),
	pass("result for a call from a messages snapshot", RuleUnknownID,
		rs, snapshot(&AssistantMessage{ID: "a", ToolCalls: []ToolCall{{ID: "tc-snap"}}}), callResult("tm", "tc-snap", ""), runFinished()),
	fail("result for a call never started", RuleUnknownID, "tc", rs, callResult("tm", "tc", "")),
	fail("result for a call of the previous run", RuleUnknownID, "tc",
		rs, callStart("tc", "", ""), callEnd("tc", ""), runFinished(), runStarted("r2"), callResult("tm", "tc", "")),

	// OutOfOrder
	pass("two results for one ended call", RuleOutOfOrder,
		rs, callStart("tc", "", ""), callEnd("tc", ""), callResult("tm1", "tc", ""), callResult("tm2", "tc", ""), runFinished()),
	fail("result before TOOL_CALL_END", RuleOutOfOrder, "tc", rs, callStart("tc", "", ""), callArgs("tc", ""), callResult("tm", "tc", "")),

	// OpenAtFinish
	pass("RUN_ERROR with everything open", RuleOpenAtFinish,
		rs, stepStart("plan", ""), msgStart("m", ""), callStart("tc", "", ""), spanStart("r", ""), thoughtStart("r", ""), subStart("s1", ""), runError()),
	pass("a subagent may finish with its own message open", RuleOpenAtFinish,
		rs, subStart("s1", ""), msgStart("m", "s1"), subEnd("s1"), msgEnd("m", "s1"), runFinished()),
	fail("step open at finish", RuleOpenAtFinish, "plan", rs, stepStart("plan", "s1"), runFinished()),
	fail("message open at finish", RuleOpenAtFinish, "m", rs, msgStart("m", ""), runFinished()),
	fail("reasoning message open at finish", RuleOpenAtFinish, "r", rs, spanStart("r", ""), thoughtStart("r", ""), runFinished()),
	fail("reasoning span open at finish", RuleOpenAtFinish, "r", rs, spanStart("r", ""), runFinished()),
	fail("tool call open at finish", RuleOpenAtFinish, "tc", rs, callStart("tc", "", ""), runFinished()),
	fail("subagent active at finish", RuleOpenAtFinish, "s1", rs, subStart("s1", ""), runFinished()),
	fail("steps are reported before messages", RuleOpenAtFinish, "b",
		rs, msgStart("a", ""), stepStart("c", ""), stepStart("b", ""), runFinished()),

	// OwnerMismatch
	pass("untagged continuation of a subagent's entities", RuleOwnerMismatch,
		rs, msgStart("m", "s1"), msgContent("m", ""), msgEnd("m", ""),
		callStart("tc", "m", "s1"), callArgs("tc", ""), callEnd("tc", ""),
		thoughtStart("r", "s1"), thoughtContent("r", ""), thoughtEnd("r", ""), runFinished()),
	pass("tagged tool call under its own subagent's message", RuleOwnerMismatch,
		rs, msgStart("m", "s1"), callStart("tc", "m", "s1"), callEnd("tc", "s1"), msgEnd("m", "s1"), runFinished()),
	pass("untagged tool call inherits its parent message's owner", RuleOwnerMismatch,
		rs, msgStart("m", "s1"), callStart("tc", "m", ""), callArgs("tc", "s1"), callEnd("tc", "s1"), msgEnd("m", "s1"), runFinished()),
	pass("activity delta by its owner", RuleOwnerMismatch,
		rs, &ActivitySnapshot{Attribution: Attribution{"s1"}, MessageID: "act", ActivityType: "plan"},
		&ActivityDelta{Attribution: Attribution{"s1"}, MessageID: "act", ActivityType: "plan"},
		&ActivityDelta{MessageID: "act", ActivityType: "plan"}, runFinished()),
	pass("a replacing activity snapshot changes the owner", RuleOwnerMismatch,
		rs, &ActivitySnapshot{Attribution: Attribution{"s1"}, MessageID: "act", ActivityType: "plan"},
		&ActivitySnapshot{Attribution: Attribution{"s2"}, MessageID: "act", ActivityType: "plan"},
		&ActivityDelta{Attribution: Attribution{"s2"}, MessageID: "act", ActivityType: "plan"}, runFinished()),
	pass("encrypted value tagged by the tool call's owner", RuleOwnerMismatch,
		rs, callStart("tc", "", "s1"), callEnd("tc", "s1"),
		&ReasoningEncryptedValue{Attribution: Attribution{"s1"}, Subtype: EncryptedToolCall, EntityID: "tc", EncryptedValue: "e"}, runFinished()),
	fail("content tagged by another subagent", RuleOwnerMismatch, "m", rs, msgStart("m", "s1"), msgContent("m", "s2")),
	fail("tagged content of a parent's message", RuleOwnerMismatch, "m", rs, msgStart("m", ""), msgContent("m", "s1")),
	fail("end tagged by another subagent", RuleOwnerMismatch, "m", rs, msgStart("m", "s1"), msgEnd("m", "s2")),
	fail("tool args tagged by another subagent", RuleOwnerMismatch, "tc", rs, callStart("tc", "", "s1"), callArgs("tc", "s2")),
	fail("tool call end tagged by another subagent", RuleOwnerMismatch, "tc", rs, callStart("tc", "", "s1"), callEnd("tc", "s2")),
	fail("reasoning content tagged by another subagent", RuleOwnerMismatch, "r", rs, thoughtStart("r", "s1"), thoughtContent("r", "s2")),
	fail("reasoning end tagged by another subagent", RuleOwnerMismatch, "r", rs, spanStart("r", "s1"), spanEnd("r", "s2")),
	fail("tagged tool call under a parent's message", RuleOwnerMismatch, "tc", rs, msgStart("m", ""), callStart("tc", "m", "s1")),
	fail("step finished by another owner", RuleOwnerMismatch, "tools", rs, stepStart("tools", "s1"), stepEnd("tools", "")),
	fail("activity delta by another owner", RuleOwnerMismatch, "act",
		rs, &ActivitySnapshot{Attribution: Attribution{"s1"}, MessageID: "act", ActivityType: "plan"},
		&ActivityDelta{Attribution: Attribution{"s2"}, MessageID: "act", ActivityType: "plan"}),
	fail("encrypted value for another owner's message", RuleOwnerMismatch, "m",
		rs, msgStart("m", ""), msgEnd("m", ""),
		&ReasoningEncryptedValue{Attribution: Attribution{"s1"}, Subtype: EncryptedMessage, EntityID: "m", EncryptedValue: "e"}),
	fail("encrypted value for another owner's reasoning message", RuleOwnerMismatch, "r",
		rs, thoughtStart("r", "s2"), thoughtEnd("r", "s2"),
		&ReasoningEncryptedValue{Attribution: Attribution{"s1"}, Subtype: EncryptedMessage, EntityID: "r", EncryptedValue: "e"}),
	fail("encrypted value for another owner's tool call", RuleOwnerMismatch, "tc",
		rs, callStart("tc", "", ""), callEnd("tc", ""),
		&ReasoningEncryptedValue{Attribution: Attribution{"s1"}, Subtype: EncryptedToolCall, EntityID: "tc", EncryptedValue: "e"}),

	// FirstEvent
	pass("RUN_ERROR may come first", RuleFirstEvent, runError(), rs, runFinished()),
	pass("chunks, state and custom events inside a run", RuleFirstEvent,
		rs, &TextMessageChunk{MessageID: "c", Delta: "hi"}, &ToolCallChunk{ToolCallID: "tcc", ToolCallName: "f"},
		&ReasoningMessageChunk{MessageID: "rc"}, &StateSnapshot{}, &StateDelta{}, &Raw{}, &Custom{Name: "x"}, runFinished()),
	fail("a message before RUN_STARTED", RuleFirstEvent, "", msgStart("m", "")),
	fail("RUN_FINISHED first", RuleFirstEvent, "", runFinished()),
	fail("state before RUN_STARTED", RuleFirstEvent, "", &StateSnapshot{}),

	// UnknownParent
	pass("nested subagent, closed in any order", RuleUnknownParent,
		rs, subStart("s1", ""), subStart("s2", "s1"), subEnd("s1"), subStart("s3", "s1"), subEnd("s2"), subEnd("s3"), runFinished()),
	fail("parent never started", RuleUnknownParent, "nope", rs, subStart("s1", "nope")),
	fail("parent started in the previous run", RuleUnknownParent, "s1",
		rs, subStart("s1", ""), subEnd("s1"), runFinished(), runStarted("r2"), subStart("s2", "s1")),

	// ReusedID
	pass("a subagent id again in the next run", RuleReusedID,
		rs, subStart("s1", ""), subEnd("s1"), runFinished(), runStarted("r2"), subStart("s1", ""), subEnd("s1"), runFinished()),
	pass("the parent reopens a user message id from the input", RuleReusedID,
		runWithHistory(), msgStart("u1", ""), msgEnd("u1", ""), runFinished()),
	pass("a subagent reopens its own message from the input", RuleReusedID,
		runWithHistory(), msgStart("a1", "s1"), msgEnd("a1", "s1"), runFinished()),
	pass("ids of the previous run are free", RuleReusedID,
		rs, msgStart("m", "s1"), msgEnd("m", "s1"), runFinished(), runStarted("r2"), msgStart("m", "s2"), msgEnd("m", "s2"), runFinished()),
	fail("a subagent id reused after it finished", RuleReusedID, "s1", rs, subStart("s1", ""), subEnd("s1"), subStart("s1", "")),
	fail("a subagent id reused after it failed", RuleReusedID, "s1", rs, subStart("s1", ""), subFail("s1"), subStart("s1", "")),
	fail("a message id reopened by another owner", RuleReusedID, "m", rs, msgStart("m", "s1"), msgEnd("m", "s1"), msgStart("m", "")),
	fail("a message id from a snapshot opened by another owner", RuleReusedID, "m1",
		rs, snapshot(&AssistantMessage{ID: "m1", SubagentRunID: "s1"}), msgStart("m1", "s2")),
	fail("a message id from the input opened by another owner", RuleReusedID, "u1", runWithHistory(), msgStart("u1", "s1")),
	fail("a message id from the input opened by the parent", RuleReusedID, "a1", runWithHistory(), msgStart("a1", "")),
	fail("a tool result's message id opened by another owner", RuleReusedID, "tm",
		rs, callStart("tc", "", ""), callEnd("tc", ""), callResult("tm", "tc", "s1"), msgStart("tm", "")),
	fail("a tool call id reused by another owner", RuleReusedID, "tc",
		rs, callStart("tc", "", "s1"), callEnd("tc", "s1"), callStart("tc", "", "s2")),
	fail("a tool call id from the input reused by another owner", RuleReusedID, "tc-old", runWithHistory(), callStart("tc-old", "", "s2")),
	fail("a reasoning message id from a snapshot opened by another owner", RuleReusedID, "r",
		rs, snapshot(&ReasoningMessage{ID: "r", SubagentRunID: "s1"}), thoughtStart("r", "")),
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
				if CodeOf(err) != CodeProtocolViolation {
					t.Errorf("code %q, want %q", CodeOf(err), CodeProtocolViolation)
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
	for r := RuleRunEnded; r <= RuleReusedID; r++ {
		if passes[r] == 0 || fails[r] == 0 {
			t.Errorf("rule %s: %d passing and %d failing streams, want at least one of each", r, passes[r], fails[r])
		}
	}
}

func TestVerifierMessage(t *testing.T) {
	v := NewVerifier()
	for _, ev := range []Event{rs, msgStart("msg-1", "")} {
		if err := v.Observe(ev); err != nil {
			t.Fatal(err)
		}
	}
	err := v.Observe(msgContent("msg-2", ""))
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
		{[]Event{rs, msgStart("m", "s1"), msgContent("m", "s2")}, `message "m" belongs to subagent "s1", not subagent "s2"`},
		{[]Event{rs, msgStart("m", ""), msgContent("m", "s2")}, `message "m" belongs to the parent agent, not subagent "s2"`},
		{[]Event{rs, msgStart("m", ""), callStart("tc", "m", "s1")}, `tool call "tc" is tagged subagent "s1" but its parent message "m" belongs to the parent agent`},
		{[]Event{rs, stepStart("tools", "s1"), stepEnd("tools", "")}, `step "tools" is open under subagent "s1", not the parent agent`},
		{[]Event{rs, stepEnd("tools", "s1")}, `step "tools" of subagent "s1" is not open`},
		{[]Event{rs, msgStart("a", ""), callStart("b", "", ""), runFinished()}, `message "a" is still open (and 1 more)`},
		{[]Event{rs, stepStart("plan", "s1"), runFinished()}, `step "plan" of subagent "s1" is still open`},
		{[]Event{rs, callResult("tm", "tc", "")}, `tool call "tc" was never started in this run`},
		{[]Event{rs, callStart("tc", "", ""), callResult("tm", "tc", "")}, `tool call "tc" has not ended`},
		{[]Event{rs, subStart("s1", ""), subEnd("s1"), subStart("s1", "")}, `subagent "s1" already ran in this run`},
		{[]Event{rs, subStart("s1", "p")}, `parent subagent "p" was not started in this run`},
		{[]Event{rs, runStarted("r2")}, `run "r" is still active`},
		{[]Event{rs, runFinished(), runFinished()}, `run "r" has already finished`},
		{[]Event{rs, runError(), runFinished()}, `run "r" has already errored`},
		{[]Event{msgStart("m", "")}, `the stream begins with TEXT_MESSAGE_START`},
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
		{rs, true},
		{subStart("s2", "nope"), false},
		{msgStart("m", "s1"), true},
		{msgStart("m", "s2"), false},
		{msgContent("m", "s1"), true},
		{callStart("tc", "m", "s2"), false},
		{callStart("tc", "m", ""), true},
		{callResult("tm", "tc", ""), false},
		{callEnd("tc", ""), true},
		{msgEnd("m", ""), true},
		{runFinished(), true},
		{runFinished(), false},
		{runStarted("r2"), true},
		{subStart("s2", ""), true}, // not taken by the rejected start above
		{subEnd("s2"), true},
		{runFinished(), true},
	}
	for i, s := range steps {
		if err := v.Observe(s.ev); (err == nil) != s.ok {
			t.Fatalf("step %d (%s): error %v, want accepted=%v", i, s.ev.Type(), err, s.ok)
		}
	}
}

func TestVerifierZeroValue(t *testing.T) {
	var v Verifier
	for _, ev := range []Event{rs, stepStart("s", ""), stepEnd("s", ""), runFinished()} {
		if err := v.Observe(ev); err != nil {
			t.Fatal(err)
		}
	}
}

func TestVerifierNilEvent(t *testing.T) {
	for _, events := range [][]Event{{nil}, {rs, nil}} {
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
	for _, ev := range []Event{rs, msgStart("m", "s1"), callStart("tc", "m", "")} {
		if err := v.Observe(ev); err != nil {
			t.Fatal(err)
		}
	}
	content, args := msgContent("m", "s1"), callArgs("tc", "")
	allocs := testing.AllocsPerRun(100, func() {
		if v.Observe(content) != nil || v.Observe(args) != nil {
			t.Fatal("rejected")
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per content event, want 0", allocs)
	}
}
