package transformers

import (
	"testing"

	"github.com/agui-go/agui"
)

func TestChunkLanes(t *testing.T) {
	type step struct {
		ev       agui.Event
		id, lane string // what observe must return
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"an id-less chunk continues the parent's stream", []step{
			{&agui.ToolCallChunk{ToolCallID: "t1", ToolCallName: "a"}, "t1", ""},
			{&agui.ToolCallChunk{Delta: "x"}, "t1", ""},
		}},
		{"a tag names the lane", []step{
			{tagged("s1", &agui.ToolCallChunk{ToolCallID: "t1", ToolCallName: "a"}), "t1", "s1"},
			{&agui.ToolCallChunk{ToolCallID: "t2", ToolCallName: "b"}, "t2", ""},
			{tagged("s1", &agui.ToolCallChunk{}), "t1", "s1"},
			{&agui.ToolCallChunk{}, "t2", ""},
		}},
		{"an id finds its lane", []step{
			{tagged("s1", &agui.TextMessageChunk{MessageID: "m1"}), "m1", "s1"},
			{&agui.TextMessageChunk{MessageID: "m1"}, "m1", "s1"},
		}},
		{"an untagged id-less chunk falls to the sole open lane of its kind", []step{
			{tagged("s1", &agui.ReasoningMessageChunk{MessageID: "r1"}), "r1", "s1"},
			{tagged("s2", &agui.TextMessageChunk{MessageID: "m2"}), "m2", "s2"},
			{&agui.ReasoningMessageChunk{}, "r1", "s1"},
			{&agui.TextMessageChunk{}, "m2", "s2"},
		}},
		{"several candidate lanes resolve to nothing", []step{
			{tagged("s1", &agui.TextMessageChunk{MessageID: "m1"}), "m1", "s1"},
			{tagged("s2", &agui.TextMessageChunk{MessageID: "m2"}), "m2", "s2"},
			{&agui.TextMessageChunk{}, "", ""},
		}},
		{"an explicit event closes its own lane only", []step{
			{tagged("s1", &agui.TextMessageChunk{MessageID: "m1"}), "m1", "s1"},
			{&agui.TextMessageChunk{MessageID: "m0"}, "m0", ""},
			{&agui.StepStarted{StepName: "x"}, "", ""},
			{&agui.TextMessageChunk{}, "m1", "s1"},
		}},
		{"a subagent's end closes its lane", []step{
			{tagged("s1", &agui.TextMessageChunk{MessageID: "m1"}), "m1", "s1"},
			{&agui.SubagentFinished{SubagentRunID: "s1"}, "", ""},
			{&agui.TextMessageChunk{}, "", ""},
		}},
		{"RAW closes nothing; MESSAGES_SNAPSHOT closes all", []step{
			{&agui.TextMessageChunk{MessageID: "m1"}, "m1", ""},
			{&agui.Raw{}, "", ""},
			{&agui.TextMessageChunk{}, "m1", ""},
			{&agui.MessagesSnapshot{}, "", ""},
			{&agui.TextMessageChunk{}, "", ""},
		}},
		{"another kind replaces the lane's stream", []step{
			{&agui.TextMessageChunk{MessageID: "m1"}, "m1", ""},
			{&agui.ToolCallChunk{ToolCallID: "t1", ToolCallName: "a"}, "t1", ""},
			{&agui.TextMessageChunk{}, "", ""},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var l chunkLanes
			for i, s := range tt.steps {
				id, lane := l.observe(s.ev)
				if id != s.id || lane != s.lane {
					t.Errorf("step %d (%s): got id %q lane %q, want %q %q", i, describe(s.ev), id, lane, s.id, s.lane)
				}
			}
		})
	}
}
