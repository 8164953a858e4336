//go:build !agui_noverify

package agui

import (
	"errors"
	"maps"
	"reflect"
	"testing"
)

// fuzzEventKinds is how many event shapes fuzzEvent builds.
const fuzzEventKinds = 27

// fuzzEvent builds one event from one byte: the byte picks a shape, an id
// from a pool of three and an owner ("" or one of the same three ids, so
// that subagent ids and tags meet). The small pools make collisions, and
// so rule violations, frequent.
func fuzzEvent(b byte) Event {
	ids := [...]string{"a", "b", "c"}
	owners := [...]string{"", "a", "b", "c"}
	k, r := int(b)%fuzzEventKinds, int(b)/fuzzEventKinds
	id, other, owner := ids[r%3], ids[(r+1)%3], owners[r/3]
	at := Attribution{owner}
	history := func() []Message {
		return []Message{
			&AssistantMessage{ID: id, SubagentRunID: owner, ToolCalls: []ToolCall{{ID: id}}},
			&ReasoningMessage{ID: other, SubagentRunID: owner},
			&ActivityMessage{ID: id, SubagentRunID: owner},
			&UserMessage{ID: "u"},
			nil,
		}
	}
	switch k {
	case 0:
		return &RunStarted{ThreadID: "t", RunID: id}
	case 1:
		in := NewInput("t", id)
		in.Messages = history()
		return &RunStarted{ThreadID: "t", RunID: id, Input: in}
	case 2:
		return &RunFinished{ThreadID: "t", RunID: id}
	case 3:
		return &RunError{Message: "boom"}
	case 4:
		return &TextMessageStart{Attribution: at, MessageID: id}
	case 5:
		return &TextMessageContent{Attribution: at, MessageID: id}
	case 6:
		return &TextMessageEnd{Attribution: at, MessageID: id}
	case 7:
		return &ToolCallStart{Attribution: at, ToolCallID: id, ToolCallName: "f"}
	case 8:
		return &ToolCallStart{Attribution: at, ToolCallID: id, ToolCallName: "f", ParentMessageID: other}
	case 9:
		return &ToolCallArgs{Attribution: at, ToolCallID: id}
	case 10:
		return &ToolCallEnd{Attribution: at, ToolCallID: id}
	case 11:
		return &ToolCallResult{Attribution: at, MessageID: other, ToolCallID: id}
	case 12:
		return &ReasoningStart{Attribution: at, MessageID: id}
	case 13:
		return &ReasoningEnd{Attribution: at, MessageID: id}
	case 14:
		return &ReasoningMessageStart{Attribution: at, MessageID: id}
	case 15:
		return &ReasoningMessageContent{Attribution: at, MessageID: id}
	case 16:
		return &ReasoningMessageEnd{Attribution: at, MessageID: id}
	case 17:
		subtype := EncryptedMessage
		if r%2 == 0 {
			subtype = EncryptedToolCall
		}
		return &ReasoningEncryptedValue{Attribution: at, Subtype: subtype, EntityID: id, EncryptedValue: "e"}
	case 18:
		return &StepStarted{Attribution: at, StepName: id}
	case 19:
		return &StepFinished{Attribution: at, StepName: id}
	case 20:
		return &SubagentStarted{SubagentRunID: id, Name: "n", ParentSubagentRunID: owner}
	case 21:
		return &SubagentFinished{SubagentRunID: id}
	case 22:
		return &SubagentError{SubagentRunID: id, Message: "failed"}
	case 23:
		return &MessagesSnapshot{Messages: history()}
	case 24:
		replace := r%2 == 0
		return &ActivitySnapshot{Attribution: at, MessageID: id, ActivityType: "x", Replace: &replace}
	case 25:
		return &ActivityDelta{Attribution: at, MessageID: id, ActivityType: "x"}
	default:
		return &TextMessageChunk{Attribution: at, MessageID: id, Delta: "d"}
	}
}

// copyVerifier returns a deep copy of v's state.
func copyVerifier(v *Verifier) Verifier {
	c := *v
	c.messages = maps.Clone(v.messages)
	c.toolCalls = maps.Clone(v.toolCalls)
	c.spans = maps.Clone(v.spans)
	c.thoughts = maps.Clone(v.thoughts)
	c.activities = maps.Clone(v.activities)
	c.steps = maps.Clone(v.steps)
	c.subagents = maps.Clone(v.subagents)
	return c
}

// FuzzVerifier feeds random event sequences to a verifier: it never panics,
// every rejection is a well-formed PROTOCOL_VIOLATION, a rejected event
// leaves the state exactly as it was, and an accepted RUN_FINISHED leaves
// nothing open.
func FuzzVerifier(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		v := NewVerifier()
		for i, b := range data {
			ev := fuzzEvent(b)
			before := copyVerifier(v)
			err := v.Observe(ev)
			if err == nil {
				if _, finished := ev.(*RunFinished); finished {
					if open := v.openSets(); !reflect.DeepEqual(open, openSet{}) {
						t.Fatalf("event %d: RUN_FINISHED accepted with %+v open", i, open)
					}
				}
				continue
			}
			var ve *VerificationError
			if !errors.As(err, &ve) || CodeOf(err) != CodeProtocolViolation {
				t.Fatalf("event %d (%s): %v is not a verification failure", i, ev.Type(), err)
			}
			if ve.Event != ev.Type() || ve.Rule < RuleRunEnded || ve.Rule > RuleTypeWithoutValue || ve.Detail == "" {
				t.Fatalf("event %d (%s): malformed failure %+v", i, ev.Type(), ve)
			}
			if !reflect.DeepEqual(before, *v) {
				t.Fatalf("event %d (%s) was rejected (%v) but changed the state:\nbefore %+v\nafter  %+v", i, ev.Type(), err, before, *v)
			}
		}
	})
}
