package agui

import (
	"strconv"
	"strings"

	"github.com/agui-go/agui/internal/jsonx"
)

// This file encodes every event with the members @ag-ui/encoder 1.0 writes
// for it: optional fields without a value are left out, never written as
// null; STATE_SNAPSHOT.snapshot, RAW.event and CUSTOM.value are always
// written (nil as null); required arrays are [] when empty. Members come in
// a fixed order: "type", the base fields, the event's own fields, then
// subagentRunId (clients do not depend on member order). The encoder
// appends to a caller-owned buffer and allocates nothing for events made of
// strings and numbers.

// objWriter appends the members of one JSON object to b. The first error
// sticks: later opaque values are skipped, and end reports it.
type objWriter struct {
	b   []byte
	err error
}

// openEvent starts an event object: its type and the Base fields.
func openEvent(dst []byte, t EventType, base *Base) objWriter {
	w := objWriter{b: dst}
	w.b = append(w.b, `{"type":"`...)
	w.b = append(w.b, t...)
	w.b = append(w.b, '"')
	if base.Timestamp != 0 {
		w.int(`,"timestamp":`, base.Timestamp)
	}
	w.optValue(`,"rawEvent":`, base.RawEvent)
	w.optObject(`,"metadata":`, base.Metadata)
	return w
}

// end closes the object. On error it returns dst as it was before the
// object was started and a SERIALIZATION *Error naming the event type.
func (w *objWriter) end(dst []byte, t EventType) ([]byte, error) {
	if w.err != nil {
		return dst, &Error{
			Code:    CodeSerialization,
			Message: "cannot encode " + string(t) + " as JSON: " + w.err.Error(),
			Err:     w.err,
		}
	}
	return append(w.b, '}'), nil
}

// memberName returns the name in a member key literal such as `,"name":`.
func memberName(key string) string { return strings.Trim(key, `,{":`) }

// str writes a string member; key is the literal `,"name":`.
func (w *objWriter) str(key, s string) {
	w.b = append(w.b, key...)
	w.b = jsonx.AppendString(w.b, s)
}

// optStr writes a string member unless s is empty.
func (w *objWriter) optStr(key, s string) {
	if s != "" {
		w.str(key, s)
	}
}

func (w *objWriter) int(key string, n int64) {
	w.b = append(w.b, key...)
	w.b = strconv.AppendInt(w.b, n, 10)
}

// optInt writes an integer member unless p is nil.
func (w *objWriter) optInt(key string, p *int64) {
	if p != nil {
		w.int(key, *p)
	}
}

// value writes a required opaque member; nil is written as null.
func (w *objWriter) value(key string, v any) {
	if w.err != nil {
		return
	}
	w.b = append(w.b, key...)
	if w.b, w.err = jsonx.AppendValue(w.b, v); w.err != nil {
		w.err = jsonx.At(memberName(key), w.err)
	}
}

// optValue writes an optional opaque member, leaving it out when v is nil
// or encodes as null (a json.RawMessage "null", a nil map in an any), since
// the protocol forbids null for every optional field.
func (w *objWriter) optValue(key string, v any) {
	if v == nil || w.err != nil {
		return
	}
	n := len(w.b)
	w.value(key, v)
	if w.err == nil && jsonx.IsNull(w.b, n+len(key)) {
		w.b = w.b[:n]
	}
}

// object writes a JSON object member; a nil map is written as {}.
func (w *objWriter) object(key string, m map[string]any) {
	if w.err != nil {
		return
	}
	w.b = append(w.b, key...)
	if w.b, w.err = jsonx.AppendObject(w.b, m); w.err != nil {
		w.err = jsonx.At(memberName(key), w.err)
	}
}

// optObject writes a JSON object member unless m is nil.
func (w *objWriter) optObject(key string, m map[string]any) {
	if m != nil {
		w.object(key, m)
	}
}

// strings writes a string array member; nil is written as [].
func (w *objWriter) strings(key string, a []string) {
	w.b = append(w.b, key...)
	w.b = jsonx.AppendStrings(w.b, a)
}

// call lets the nested encoders of this package share the sticky error.
func (w *objWriter) call(key string, f func([]byte) ([]byte, error)) {
	if w.err != nil {
		return
	}
	w.b = append(w.b, key...)
	if w.b, w.err = f(w.b); w.err != nil {
		w.err = jsonx.At(memberName(key), w.err)
	}
}

func (w *objWriter) patch(key string, ops []PatchOp) {
	if w.err != nil {
		return
	}
	w.b = append(w.b, key...)
	w.b = append(w.b, '[')
	for i := range ops {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		if w.b, w.err = ops[i].appendJSON(w.b); w.err != nil {
			w.err = jsonx.At(memberName(key), jsonx.AtIndex(i, w.err))
			return
		}
	}
	w.b = append(w.b, ']')
}

// usage writes a TokenUsage array member unless it is empty: absent usage
// means "not reported".
func (w *objWriter) usage(key string, us []TokenUsage) {
	if len(us) == 0 {
		return
	}
	w.b = append(w.b, key...)
	w.b = append(w.b, '[')
	for i := range us {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.b = us[i].appendJSON(w.b)
	}
	w.b = append(w.b, ']')
}

// AppendJSON implements [Event].
func (e *TextMessageStart) AppendJSON(dst []byte) ([]byte, error) {
	w := openEvent(dst, TypeTextMessageStart, &e.Base)
	w.str(`,"messageId":`, e.MessageID)
	w.optStr(`,"role":`, string(e.Role))
	w.optStr(`,"name":`, e.Name)
	w.optStr(`,"subagentRunId":`, e.SubagentRunID)
	return w.end(dst, TypeTextMessageStart)
}

// AppendJSON implements [Event]. With a buffer of enough capacity it does not
// allocate.
func (e *TextMessageContent) AppendJSON(dst []byte) ([]byte, error) {
	w := openEvent(dst, TypeTextMessageContent, &e.Base)
	w.str(`,"messageId":`, e.MessageID)
	w.str(`,"delta":`, e.Delta)
	w.optStr(`,"subagentRunId":`, e.SubagentRunID)
	return w.end(dst, TypeTextMessageContent)
}

// AppendJSON implements [Event].
func (e *TextMessageEnd) AppendJSON(dst []byte) ([]byte, error) {
	w := openEvent(dst, TypeTextMessageEnd, &e.Base)
	w.str(`,"messageId":`, e.MessageID)
	w.optStr(`,"subagentRunId":`, e.SubagentRunID)
	return w.end(dst, TypeTextMessageEnd)
}

// AppendJSON implements [Event].
func (e *TextMessageChunk) AppendJSON(dst []byte) ([]byte, error) {
	w := openEvent(dst, TypeTextMessageChunk, &e.Base)
	w.optStr(`,"messageId":`, e.MessageID)
	w.optStr(`,"role":`, string(e.Role))
	w.optStr(`,"delta":`, e.Delta)
	w.optStr(`,"name":`, e.Name)
	w.optStr(`,"subagentRunId":`, e.SubagentRunID)
	return w.end(dst, TypeTextMessageChunk)
}

// AppendJSON implements [Event].
func (e *ToolCallStart) AppendJSON(dst []byte) ([]byte, error) {
	w := openEvent(dst, TypeToolCallStart, &e.Base)
	w.str(`,"toolCallId":`, e.ToolCallID)
	w.str(`,"toolCallName":`, e.ToolCallName)
	w.optStr(`,"parentMessageId":`, e.ParentMessageID)
	w.optStr(`,"subagentRunId":`, e.SubagentRunID)
	return w.end(dst, TypeToolCallStart)
}

// AppendJSON implements [Event]. With a buffer of enough capacity it does not
// allocate.
func (e *ToolCallArgs) AppendJSON(dst []byte) ([]byte, error) {
	w := openEvent(dst, TypeToolCallArgs, &e.Base)
	w.str(`,"toolCallId":`, e.ToolCallID)
	w.str(`,"delta":`, e.Delta)
	w.optStr(`,"subagentRunId":`, e.SubagentRunID)
	return w.end(dst, TypeToolCallArgs)
}

// AppendJSON implements [Event].
func (e *ToolCallEnd) AppendJSON(dst []byte) ([]byte, error) {
	w := openEvent(dst, TypeToolCallEnd, &e.Base)
	w.str(`,"toolCallId":`, e.ToolCallID)
	w.optStr(`,"subagentRunId":`, e.SubagentRunID)
	return w.end(dst, TypeToolCallEnd)
}

// AppendJSON implements [Event].
func (e *ToolCallChunk) AppendJSON(dst []byte) ([]byte, error) {
	w := openEvent(dst, TypeToolCallChunk, &e.Base)
	w.optStr(`,"toolCallId":`, e.ToolCallID)
	w.optStr(`,"toolCallName":`, e.ToolCallName)
	w.optStr(`,"parentMessageId":`, e.ParentMessageID)
	w.optStr(`,"delta":`, e.Delta)
	w.optStr(`,"subagentRunId":`, e.SubagentRunID)
	return w.end(dst, TypeToolCallChunk)
}

// AppendJSON implements [Event].
func (e *ToolCallResult) AppendJSON(dst []byte) ([]byte, error) {
	w := openEvent(dst, TypeToolCallResult, &e.Base)
	w.str(`,"messageId":`, e.MessageID)
	w.str(`,"toolCallId":`, e.ToolCallID)
	w.call(`,"content":`, e.Content.appendJSON)
	w.optStr(`,"role":`, string(e.Role))
	w.optStr(`,"subagentRunId":`, e.SubagentRunID)
	return w.end(dst, TypeToolCallResult)
}

// AppendJSON implements [Event]. A nil Snapshot is written as null.
func (e *StateSnapshot) AppendJSON(dst []byte) ([]byte, error) {
	w := openEvent(dst, TypeStateSnapshot, &e.Base)
	w.value(`,"snapshot":`, e.Snapshot)
	w.optStr(`,"subagentRunId":`, e.SubagentRunID)
	return w.end(dst, TypeStateSnapshot)
}

// AppendJSON implements [Event]. A nil Delta is written as [].
func (e *StateDelta) AppendJSON(dst []byte) ([]byte, error) {
	w := openEvent(dst, TypeStateDelta, &e.Base)
	w.patch(`,"delta":`, e.Delta)
	w.optStr(`,"subagentRunId":`, e.SubagentRunID)
	return w.end(dst, TypeStateDelta)
}

// AppendJSON implements [Event]. Nil Messages are written as []; a nil
// element is an error.
func (e *MessagesSnapshot) AppendJSON(dst []byte) ([]byte, error) {
	w := openEvent(dst, TypeMessagesSnapshot, &e.Base)
	w.call(`,"messages":`, func(b []byte) ([]byte, error) { return appendMessages(b, e.Messages) })
	return w.end(dst, TypeMessagesSnapshot)
}

// AppendJSON implements [Event]. A nil Content is written as {}.
func (e *ActivitySnapshot) AppendJSON(dst []byte) ([]byte, error) {
	w := openEvent(dst, TypeActivitySnapshot, &e.Base)
	w.str(`,"messageId":`, e.MessageID)
	w.str(`,"activityType":`, e.ActivityType)
	w.object(`,"content":`, e.Content)
	if e.Replace != nil {
		w.b = append(w.b, `,"replace":`...)
		w.b = strconv.AppendBool(w.b, *e.Replace)
	}
	w.optStr(`,"subagentRunId":`, e.SubagentRunID)
	return w.end(dst, TypeActivitySnapshot)
}

// AppendJSON implements [Event]. A nil Patch is written as [].
func (e *ActivityDelta) AppendJSON(dst []byte) ([]byte, error) {
	w := openEvent(dst, TypeActivityDelta, &e.Base)
	w.str(`,"messageId":`, e.MessageID)
	w.str(`,"activityType":`, e.ActivityType)
	w.patch(`,"patch":`, e.Patch)
	w.optStr(`,"subagentRunId":`, e.SubagentRunID)
	return w.end(dst, TypeActivityDelta)
}

// AppendJSON implements [Event]. A nil Event is written as null.
func (e *Raw) AppendJSON(dst []byte) ([]byte, error) {
	w := openEvent(dst, TypeRaw, &e.Base)
	w.value(`,"event":`, e.Event)
	w.optStr(`,"source":`, e.Source)
	w.optStr(`,"subagentRunId":`, e.SubagentRunID)
	return w.end(dst, TypeRaw)
}

// AppendJSON implements [Event]. A nil Value is written as null.
func (e *Custom) AppendJSON(dst []byte) ([]byte, error) {
	w := openEvent(dst, TypeCustom, &e.Base)
	w.str(`,"name":`, e.Name)
	w.value(`,"value":`, e.Value)
	w.optStr(`,"subagentRunId":`, e.SubagentRunID)
	return w.end(dst, TypeCustom)
}

// AppendJSON implements [Event].
func (e *RunStarted) AppendJSON(dst []byte) ([]byte, error) {
	w := openEvent(dst, TypeRunStarted, &e.Base)
	w.str(`,"threadId":`, e.ThreadID)
	w.str(`,"runId":`, e.RunID)
	w.optStr(`,"protocolVersion":`, e.ProtocolVersion)
	w.optStr(`,"parentRunId":`, e.ParentRunID)
	if e.Input != nil {
		w.call(`,"input":`, e.Input.appendJSON)
	}
	return w.end(dst, TypeRunStarted)
}

// AppendJSON implements [Event].
func (e *RunFinished) AppendJSON(dst []byte) ([]byte, error) {
	w := openEvent(dst, TypeRunFinished, &e.Base)
	w.str(`,"threadId":`, e.ThreadID)
	w.str(`,"runId":`, e.RunID)
	w.optValue(`,"result":`, e.Result)
	if e.Outcome != nil {
		w.call(`,"outcome":`, e.Outcome.appendJSON)
	}
	w.usage(`,"usage":`, e.Usage)
	return w.end(dst, TypeRunFinished)
}

// AppendJSON implements [Event].
func (e *RunError) AppendJSON(dst []byte) ([]byte, error) {
	w := openEvent(dst, TypeRunError, &e.Base)
	w.str(`,"message":`, e.Message)
	w.optStr(`,"code":`, e.Code)
	w.usage(`,"usage":`, e.Usage)
	return w.end(dst, TypeRunError)
}

// AppendJSON implements [Event].
func (e *StepStarted) AppendJSON(dst []byte) ([]byte, error) {
	w := openEvent(dst, TypeStepStarted, &e.Base)
	w.str(`,"stepName":`, e.StepName)
	w.optStr(`,"subagentRunId":`, e.SubagentRunID)
	return w.end(dst, TypeStepStarted)
}

// AppendJSON implements [Event].
func (e *StepFinished) AppendJSON(dst []byte) ([]byte, error) {
	w := openEvent(dst, TypeStepFinished, &e.Base)
	w.str(`,"stepName":`, e.StepName)
	w.optStr(`,"subagentRunId":`, e.SubagentRunID)
	return w.end(dst, TypeStepFinished)
}

// AppendJSON implements [Event].
func (e *ReasoningStart) AppendJSON(dst []byte) ([]byte, error) {
	w := openEvent(dst, TypeReasoningStart, &e.Base)
	w.str(`,"messageId":`, e.MessageID)
	w.optStr(`,"subagentRunId":`, e.SubagentRunID)
	return w.end(dst, TypeReasoningStart)
}

// AppendJSON implements [Event]. The role is always "reasoning".
func (e *ReasoningMessageStart) AppendJSON(dst []byte) ([]byte, error) {
	w := openEvent(dst, TypeReasoningMessageStart, &e.Base)
	w.str(`,"messageId":`, e.MessageID)
	w.b = append(w.b, `,"role":"reasoning"`...)
	w.optStr(`,"subagentRunId":`, e.SubagentRunID)
	return w.end(dst, TypeReasoningMessageStart)
}

// AppendJSON implements [Event].
func (e *ReasoningMessageContent) AppendJSON(dst []byte) ([]byte, error) {
	w := openEvent(dst, TypeReasoningMessageContent, &e.Base)
	w.str(`,"messageId":`, e.MessageID)
	w.str(`,"delta":`, e.Delta)
	w.optStr(`,"subagentRunId":`, e.SubagentRunID)
	return w.end(dst, TypeReasoningMessageContent)
}

// AppendJSON implements [Event].
func (e *ReasoningMessageEnd) AppendJSON(dst []byte) ([]byte, error) {
	w := openEvent(dst, TypeReasoningMessageEnd, &e.Base)
	w.str(`,"messageId":`, e.MessageID)
	w.optStr(`,"subagentRunId":`, e.SubagentRunID)
	return w.end(dst, TypeReasoningMessageEnd)
}

// AppendJSON implements [Event].
func (e *ReasoningMessageChunk) AppendJSON(dst []byte) ([]byte, error) {
	w := openEvent(dst, TypeReasoningMessageChunk, &e.Base)
	w.optStr(`,"messageId":`, e.MessageID)
	w.optStr(`,"delta":`, e.Delta)
	w.optStr(`,"subagentRunId":`, e.SubagentRunID)
	return w.end(dst, TypeReasoningMessageChunk)
}

// AppendJSON implements [Event].
func (e *ReasoningEnd) AppendJSON(dst []byte) ([]byte, error) {
	w := openEvent(dst, TypeReasoningEnd, &e.Base)
	w.str(`,"messageId":`, e.MessageID)
	w.optStr(`,"subagentRunId":`, e.SubagentRunID)
	return w.end(dst, TypeReasoningEnd)
}

// AppendJSON implements [Event].
func (e *ReasoningEncryptedValue) AppendJSON(dst []byte) ([]byte, error) {
	w := openEvent(dst, TypeReasoningEncryptedValue, &e.Base)
	w.str(`,"subtype":`, string(e.Subtype))
	w.str(`,"entityId":`, e.EntityID)
	w.str(`,"encryptedValue":`, e.EncryptedValue)
	w.optStr(`,"encryptedValueType":`, e.EncryptedValueType)
	w.optStr(`,"subagentRunId":`, e.SubagentRunID)
	return w.end(dst, TypeReasoningEncryptedValue)
}

// AppendJSON implements [Event]. SubagentRunID is required and written even
// when empty.
func (e *SubagentStarted) AppendJSON(dst []byte) ([]byte, error) {
	w := openEvent(dst, TypeSubagentStarted, &e.Base)
	w.str(`,"subagentRunId":`, e.SubagentRunID)
	w.str(`,"name":`, e.Name)
	w.optStr(`,"description":`, e.Description)
	w.optStr(`,"parentSubagentRunId":`, e.ParentSubagentRunID)
	w.optStr(`,"parentToolCallId":`, e.ParentToolCallID)
	w.optStr(`,"parentMessageId":`, e.ParentMessageID)
	return w.end(dst, TypeSubagentStarted)
}

// AppendJSON implements [Event].
func (e *SubagentFinished) AppendJSON(dst []byte) ([]byte, error) {
	w := openEvent(dst, TypeSubagentFinished, &e.Base)
	w.str(`,"subagentRunId":`, e.SubagentRunID)
	w.optValue(`,"result":`, e.Result)
	if e.Outcome != nil {
		w.b = append(w.b, `,"outcome":`...)
		w.b = e.Outcome.appendJSON(w.b)
	}
	return w.end(dst, TypeSubagentFinished)
}

// AppendJSON implements [Event].
func (e *SubagentError) AppendJSON(dst []byte) ([]byte, error) {
	w := openEvent(dst, TypeSubagentError, &e.Base)
	w.str(`,"subagentRunId":`, e.SubagentRunID)
	w.str(`,"message":`, e.Message)
	w.optStr(`,"code":`, e.Code)
	return w.end(dst, TypeSubagentError)
}

// MarshalJSON implements json.Marshaler with AppendJSON.
func (e *TextMessageStart) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil) }

// MarshalJSON implements json.Marshaler with AppendJSON.
func (e *TextMessageContent) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil) }

// MarshalJSON implements json.Marshaler with AppendJSON.
func (e *TextMessageEnd) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil) }

// MarshalJSON implements json.Marshaler with AppendJSON.
func (e *TextMessageChunk) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil) }

// MarshalJSON implements json.Marshaler with AppendJSON.
func (e *ToolCallStart) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil) }

// MarshalJSON implements json.Marshaler with AppendJSON.
func (e *ToolCallArgs) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil) }

// MarshalJSON implements json.Marshaler with AppendJSON.
func (e *ToolCallEnd) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil) }

// MarshalJSON implements json.Marshaler with AppendJSON.
func (e *ToolCallChunk) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil) }

// MarshalJSON implements json.Marshaler with AppendJSON.
func (e *ToolCallResult) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil) }

// MarshalJSON implements json.Marshaler with AppendJSON.
func (e *StateSnapshot) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil) }

// MarshalJSON implements json.Marshaler with AppendJSON.
func (e *StateDelta) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil) }

// MarshalJSON implements json.Marshaler with AppendJSON.
func (e *MessagesSnapshot) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil) }

// MarshalJSON implements json.Marshaler with AppendJSON.
func (e *ActivitySnapshot) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil) }

// MarshalJSON implements json.Marshaler with AppendJSON.
func (e *ActivityDelta) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil) }

// MarshalJSON implements json.Marshaler with AppendJSON.
func (e *Raw) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil) }

// MarshalJSON implements json.Marshaler with AppendJSON.
func (e *Custom) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil) }

// MarshalJSON implements json.Marshaler with AppendJSON.
func (e *RunStarted) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil) }

// MarshalJSON implements json.Marshaler with AppendJSON.
func (e *RunFinished) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil) }

// MarshalJSON implements json.Marshaler with AppendJSON.
func (e *RunError) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil) }

// MarshalJSON implements json.Marshaler with AppendJSON.
func (e *StepStarted) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil) }

// MarshalJSON implements json.Marshaler with AppendJSON.
func (e *StepFinished) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil) }

// MarshalJSON implements json.Marshaler with AppendJSON.
func (e *ReasoningStart) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil) }

// MarshalJSON implements json.Marshaler with AppendJSON.
func (e *ReasoningMessageStart) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil) }

// MarshalJSON implements json.Marshaler with AppendJSON.
func (e *ReasoningMessageContent) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil) }

// MarshalJSON implements json.Marshaler with AppendJSON.
func (e *ReasoningMessageEnd) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil) }

// MarshalJSON implements json.Marshaler with AppendJSON.
func (e *ReasoningMessageChunk) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil) }

// MarshalJSON implements json.Marshaler with AppendJSON.
func (e *ReasoningEnd) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil) }

// MarshalJSON implements json.Marshaler with AppendJSON.
func (e *ReasoningEncryptedValue) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil) }

// MarshalJSON implements json.Marshaler with AppendJSON.
func (e *SubagentStarted) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil) }

// MarshalJSON implements json.Marshaler with AppendJSON.
func (e *SubagentFinished) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil) }

// MarshalJSON implements json.Marshaler with AppendJSON.
func (e *SubagentError) MarshalJSON() ([]byte, error) { return e.AppendJSON(nil) }
