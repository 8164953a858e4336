package transformers

import (
	"context"
	"log/slog"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// Log returns a transformer that logs every event passing it through
// logger at level, and passes the event on unchanged. A record's message is
// "agui event"; its attributes are the run's thread_id and run_id, the
// event's type, and the ids it carries (message, tool call, step,
// subagent, …), the outcome of RUN_FINISHED and the code of RUN_ERROR. It
// logs no content: no text, arguments, results or state.
//
// A nil logger logs through [slog.Default]() as it is when the run starts.
// Put Log last to log what the client receives: last in [core.WithTransformers]
// or ginagui.Transform (both run in the order written), or on the outermost
// Gin group. Each run gets a
// logger carrying its ids; nothing else is kept.
func Log(logger *slog.Logger, level slog.Level) core.TransformerFactory {
	return func(in *agui.RunAgentInput) core.Transformer {
		l := logger
		if l == nil {
			l = slog.Default()
		}
		if in != nil {
			l = l.With(slog.String("thread_id", core.LogID(in.ThreadID)), slog.String("run_id", core.LogID(in.RunID)))
		}
		return core.TransformerFunc(func(ev agui.Event, emit func(agui.Event) error) error {
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
func eventAttrs(ev agui.Event) []slog.Attr {
	attrs := []slog.Attr{slog.String("type", string(ev.Type()))}
	add := func(key, v string) {
		if v != "" {
			attrs = append(attrs, slog.String(key, v))
		}
	}
	switch e := ev.(type) {
	case *agui.TextMessageStart:
		add("message_id", e.MessageID)
		add("role", string(e.Role))
	case *agui.TextMessageContent:
		add("message_id", e.MessageID)
	case *agui.TextMessageEnd:
		add("message_id", e.MessageID)
	case *agui.TextMessageChunk:
		add("message_id", e.MessageID)
	case *agui.ToolCallStart:
		add("tool_call_id", e.ToolCallID)
		add("tool_call_name", e.ToolCallName)
		add("parent_message_id", e.ParentMessageID)
	case *agui.ToolCallArgs:
		add("tool_call_id", e.ToolCallID)
	case *agui.ToolCallEnd:
		add("tool_call_id", e.ToolCallID)
	case *agui.ToolCallChunk:
		add("tool_call_id", e.ToolCallID)
		add("tool_call_name", e.ToolCallName)
	case *agui.ToolCallResult:
		add("tool_call_id", e.ToolCallID)
		add("message_id", e.MessageID)
	case *agui.StateDelta:
		attrs = append(attrs, slog.Int("ops", len(e.Delta)))
	case *agui.MessagesSnapshot:
		attrs = append(attrs, slog.Int("messages", len(e.Messages)))
	case *agui.ActivitySnapshot:
		add("message_id", e.MessageID)
		add("activity_type", e.ActivityType)
	case *agui.ActivityDelta:
		add("message_id", e.MessageID)
		add("activity_type", e.ActivityType)
	case *agui.Raw:
		add("source", e.Source)
	case *agui.Custom:
		add("name", e.Name)
	case *agui.RunStarted:
		add("parent_run_id", e.ParentRunID)
	case *agui.RunFinished:
		outcome := agui.OutcomeSuccess
		if e.Outcome != nil {
			outcome = e.Outcome.Type
		}
		add("outcome", string(outcome))
	case *agui.RunError:
		add("code", e.Code)
	case *agui.StepStarted:
		add("step_name", e.StepName)
	case *agui.StepFinished:
		add("step_name", e.StepName)
	case *agui.ReasoningStart:
		add("message_id", e.MessageID)
	case *agui.ReasoningMessageStart:
		add("message_id", e.MessageID)
	case *agui.ReasoningMessageContent:
		add("message_id", e.MessageID)
	case *agui.ReasoningMessageEnd:
		add("message_id", e.MessageID)
	case *agui.ReasoningMessageChunk:
		add("message_id", e.MessageID)
	case *agui.ReasoningEnd:
		add("message_id", e.MessageID)
	case *agui.ReasoningEncryptedValue:
		add("subtype", string(e.Subtype))
		add("entity_id", e.EntityID)
	case *agui.SubagentStarted:
		add("subagent_run_id", e.SubagentRunID)
		add("subagent_name", e.Name)
		add("parent_subagent_run_id", e.ParentSubagentRunID)
		add("parent_tool_call_id", e.ParentToolCallID)
	case *agui.SubagentFinished:
		add("subagent_run_id", e.SubagentRunID)
	case *agui.SubagentError:
		add("subagent_run_id", e.SubagentRunID)
		add("code", e.Code)
	}
	// The attribution tag of an attributed event.
	add("subagent", agui.SubagentOf(ev))
	return attrs
}
