package transformers

import (
	"testing"

	"github.com/agui-go/agui/core"
)

func TestChunkLanes(t *testing.T) {
	type step struct {
		ev       core.Event
		id, lane string // what observe must return
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"an id-less chunk continues the parent's stream", []step{
			{&core.ToolCallChunk{ToolCallID: "t1", ToolCallName: "a"}, "t1", ""},
			{&core.ToolCallChunk{Delta: "x"}, "t1", ""},
		}},
		{"a tag names the lane", []step{
			{tagged("s1", &core.ToolCallChunk{ToolCallID: "t1", ToolCallName: "a"}), "t1", "s1"},
			{&core.ToolCallChunk{ToolCallID: "t2", ToolCallName: "b"}, "t2", ""},
			{tagged("s1", &core.ToolCallChunk{}), "t1", "s1"},
			{&core.ToolCallChunk{}, "t2", ""},
		}},
		{"an id finds its lane", []step{
			{tagged("s1", &core.TextMessageChunk{MessageID: "m1"}), "m1", "s1"},
			{&core.TextMessageChunk{MessageID: "m1"}, "m1", "s1"},
		}},
		{"an untagged id-less chunk falls to the sole open lane of its kind", []step{
			{tagged("s1", &core.ReasoningMessageChunk{MessageID: "r1"}), "r1", "s1"},
			{tagged("s2", &core.TextMessageChunk{MessageID: "m2"}), "m2", "s2"},
			{&core.ReasoningMessageChunk{}, "r1", "s1"},
			{&core.TextMessageChunk{}, "m2", "s2"},
		}},
		{"several candidate lanes resolve to nothing", []step{
			{tagged("s1", &core.TextMessageChunk{MessageID: "m1"}), "m1", "s1"},
			{tagged("s2", &core.TextMessageChunk{MessageID: "m2"}), "m2", "s2"},
			{&core.TextMessageChunk{}, "", ""},
		}},
		{"an explicit event closes its own lane only", []step{
			{tagged("s1", &core.TextMessageChunk{MessageID: "m1"}), "m1", "s1"},
			{&core.TextMessageChunk{MessageID: "m0"}, "m0", ""},
			{&core.StepStarted{StepName: "x"}, "", ""},
			{&core.TextMessageChunk{}, "m1", "s1"},
		}},
		{"a subagent's end closes its lane", []step{
			{tagged("s1", &core.TextMessageChunk{MessageID: "m1"}), "m1", "s1"},
			{&core.SubagentFinished{SubagentRunID: "s1"}, "", ""},
			{&core.TextMessageChunk{}, "", ""},
		}},
		{"RAW closes nothing; MESSAGES_SNAPSHOT closes all", []step{
			{&core.TextMessageChunk{MessageID: "m1"}, "m1", ""},
			{&core.Raw{}, "", ""},
			{&core.TextMessageChunk{}, "m1", ""},
			{&core.MessagesSnapshot{}, "", ""},
			{&core.TextMessageChunk{}, "", ""},
		}},
		{"another kind replaces the lane's stream", []step{
			{&core.TextMessageChunk{MessageID: "m1"}, "m1", ""},
			{&core.ToolCallChunk{ToolCallID: "t1", ToolCallName: "a"}, "t1", ""},
			{&core.TextMessageChunk{}, "", ""},
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
