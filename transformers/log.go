package transformers

import (
	"context"
	"log/slog"

	"github.com/agui-go/agui/core"
)

// Log returns a transformer that logs every event passing it through
// logger at level, and passes the event on unchanged. A record's message is
// "agui event"; its attributes are the run's thread_id and run_id, the
// event's type, and the ids it carries (message, tool call, step,
// subagent, …), the outcome of RUN_FINISHED and the code of RUN_ERROR. It
// logs no content: no text, arguments, results or state.
//
// A nil logger logs through slog.Default() as it is when the run starts.
// Put Log last in a chain to log what the client receives. Each run gets a
// logger carrying its ids; nothing else is kept.
func Log(logger *slog.Logger, level slog.Level) core.NewTransformer {
	return func(in *core.RunAgentInput) core.Transformer {
		l := logger
		if l == nil {
			l = slog.Default()
		}
		if in != nil {
			l = l.With(slog.String("thread_id", in.ThreadID), slog.String("run_id", in.RunID))
		}
		return core.TransformerFunc(func(ev core.Event, emit func(core.Event) error) error {
			// A transformer has no context of its own; the record needs one.
			ctx := context.Background()
			if l.Enabled(ctx, level) {
				l.LogAttrs(ctx, level, "agui event", eventAttrs(ev)...)
			}
			return emit(ev)
		})
	}
}

// eventAttrs returns the type and the ids of ev as log attributes.
func eventAttrs(ev core.Event) []slog.Attr {
	attrs := []slog.Attr{slog.String("type", string(ev.Type()))}
	add := func(key, v string) {
		if v != "" {
			attrs = append(attrs, slog.String(key, v))
		}
	}
	switch e := ev.(type) {
	case *core.TextMessageStart:
		add("message_id", e.MessageID)
		add("role", string(e.Role))
	case *core.TextMessageContent:
		add("message_id", e.MessageID)
	case *core.TextMessageEnd:
		add("message_id", e.MessageID)
	case *core.TextMessageChunk:
		add("message_id", e.MessageID)
	case *core.ToolCallStart:
		add("tool_call_id", e.ToolCallID)
		add("tool_call_name", e.ToolCallName)
		add("parent_message_id", e.ParentMessageID)
	case *core.ToolCallArgs:
		add("tool_call_id", e.ToolCallID)
	case *core.ToolCallEnd:
		add("tool_call_id", e.ToolCallID)
	case *core.ToolCallChunk:
		add("tool_call_id", e.ToolCallID)
		add("tool_call_name", e.ToolCallName)
	case *core.ToolCallResult:
		add("tool_call_id", e.ToolCallID)
		add("message_id", e.MessageID)
	case *core.StateDelta:
		attrs = append(attrs, slog.Int("ops", len(e.Delta)))
	case *core.MessagesSnapshot:
		attrs = append(attrs, slog.Int("messages", len(e.Messages)))
	case *core.ActivitySnapshot:
		add("message_id", e.MessageID)
		add("activity_type", e.ActivityType)
	case *core.ActivityDelta:
		add("message_id", e.MessageID)
		add("activity_type", e.ActivityType)
	case *core.Raw:
		add("source", e.Source)
	case *core.Custom:
		add("name", e.Name)
	case *core.RunStarted:
		add("parent_run_id", e.ParentRunID)
	case *core.RunFinished:
		outcome := core.OutcomeSuccess
		if e.Outcome != nil {
			outcome = e.Outcome.Type
		}
		add("outcome", string(outcome))
	case *core.RunError:
		add("code", e.Code)
	case *core.StepStarted:
		add("step_name", e.StepName)
	case *core.StepFinished:
		add("step_name", e.StepName)
	case *core.ReasoningStart:
		add("message_id", e.MessageID)
	case *core.ReasoningMessageStart:
		add("message_id", e.MessageID)
	case *core.ReasoningMessageContent:
		add("message_id", e.MessageID)
	case *core.ReasoningMessageEnd:
		add("message_id", e.MessageID)
	case *core.ReasoningMessageChunk:
		add("message_id", e.MessageID)
	case *core.ReasoningEnd:
		add("message_id", e.MessageID)
	case *core.ReasoningEncryptedValue:
		add("subtype", string(e.Subtype))
		add("entity_id", e.EntityID)
	case *core.SubagentStarted:
		add("subagent_run_id", e.SubagentRunID)
		add("subagent_name", e.Name)
		add("parent_subagent_run_id", e.ParentSubagentRunID)
		add("parent_tool_call_id", e.ParentToolCallID)
	case *core.SubagentFinished:
		add("subagent_run_id", e.SubagentRunID)
	case *core.SubagentError:
		add("subagent_run_id", e.SubagentRunID)
		add("code", e.Code)
	}
	// The attribution tag of an attributed event.
	add("subagent", core.SubagentOf(ev))
	return attrs
}
