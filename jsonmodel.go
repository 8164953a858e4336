package agui

import "github.com/agui-go/agui/internal/jsonx"

// This file encodes the values events carry (messages, content, input,
// outcomes, usage, patches) with the rules of json.go: optional members are
// left out when empty, required arrays are written as [] when nil, and
// objects start with their discriminator ("id" and "role" for messages,
// "type" elsewhere).

// done closes a nested object and returns the sticky error unwrapped; the
// event that contains the object wraps it once.
func (w *objWriter) done() ([]byte, error) {
	if w.err != nil {
		return w.b, w.err
	}
	return append(w.b, '}'), nil
}

// marshal adapts an append encoder to json.Marshaler, wrapping its error as
// a SERIALIZATION *Error.
func marshal(what string, f func([]byte) ([]byte, error)) ([]byte, error) {
	b, err := f(nil)
	if err != nil {
		return nil, &Error{Code: CodeSerialization, Message: "cannot encode " + what + " as JSON: " + err.Error(), Err: err}
	}
	return b, nil
}

func openMessage(dst []byte, id string, role Role) objWriter {
	w := objWriter{b: dst}
	w.b = append(w.b, `{"id":`...)
	w.b = jsonx.AppendString(w.b, id)
	w.b = append(w.b, `,"role":"`...)
	w.b = append(w.b, role...)
	w.b = append(w.b, '"')
	return w
}

// appendMessages appends ms as a JSON array; nil is written as [] and a nil
// element is an error.
func appendMessages(dst []byte, ms []Message) ([]byte, error) {
	dst = append(dst, '[')
	var err error
	for i, m := range ms {
		if i > 0 {
			dst = append(dst, ',')
		}
		if dst, err = appendMessage(dst, m); err != nil {
			return dst, jsonx.AtIndex(i, err)
		}
	}
	return append(dst, ']'), nil
}

// nilMessageError is returned for a nil element of a message list.
type nilMessageError struct{}

func (nilMessageError) Error() string { return "nil message" }

func appendMessage(dst []byte, m Message) ([]byte, error) {
	switch m := m.(type) {
	case *DeveloperMessage:
		if m != nil {
			return m.appendJSON(dst)
		}
	case *SystemMessage:
		if m != nil {
			return m.appendJSON(dst)
		}
	case *AssistantMessage:
		if m != nil {
			return m.appendJSON(dst)
		}
	case *UserMessage:
		if m != nil {
			return m.appendJSON(dst)
		}
	case *ToolMessage:
		if m != nil {
			return m.appendJSON(dst)
		}
	case *ActivityMessage:
		if m != nil {
			return m.appendJSON(dst)
		}
	case *ReasoningMessage:
		if m != nil {
			return m.appendJSON(dst)
		}
	}
	return dst, nilMessageError{}
}

func (m *DeveloperMessage) appendJSON(dst []byte) ([]byte, error) {
	w := openMessage(dst, m.ID, RoleDeveloper)
	w.str(`,"content":`, m.Content)
	w.optStr(`,"name":`, m.Name)
	w.optStr(`,"encryptedValue":`, m.EncryptedValue)
	w.optStr(`,"encryptedValueType":`, m.EncryptedValueType)
	w.optObject(`,"metadata":`, m.Metadata)
	w.optStr(`,"subagentRunId":`, m.SubagentRunID)
	return w.done()
}

func (m *SystemMessage) appendJSON(dst []byte) ([]byte, error) {
	w := openMessage(dst, m.ID, RoleSystem)
	w.str(`,"content":`, m.Content)
	w.optStr(`,"name":`, m.Name)
	w.optStr(`,"encryptedValue":`, m.EncryptedValue)
	w.optStr(`,"encryptedValueType":`, m.EncryptedValueType)
	w.optObject(`,"metadata":`, m.Metadata)
	w.optStr(`,"subagentRunId":`, m.SubagentRunID)
	return w.done()
}

func (m *AssistantMessage) appendJSON(dst []byte) ([]byte, error) {
	w := openMessage(dst, m.ID, RoleAssistant)
	w.optStr(`,"content":`, m.Content)
	w.optStr(`,"name":`, m.Name)
	if len(m.ToolCalls) > 0 {
		w.b = append(w.b, `,"toolCalls":[`...)
		for i := range m.ToolCalls {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			if w.b, w.err = m.ToolCalls[i].appendJSON(w.b); w.err != nil {
				return w.b, jsonx.At("toolCalls", jsonx.AtIndex(i, w.err))
			}
		}
		w.b = append(w.b, ']')
	}
	w.optStr(`,"encryptedValue":`, m.EncryptedValue)
	w.optStr(`,"encryptedValueType":`, m.EncryptedValueType)
	w.optObject(`,"metadata":`, m.Metadata)
	w.optStr(`,"subagentRunId":`, m.SubagentRunID)
	return w.done()
}

func (m *UserMessage) appendJSON(dst []byte) ([]byte, error) {
	w := openMessage(dst, m.ID, RoleUser)
	w.call(`,"content":`, m.Content.appendJSON)
	w.optStr(`,"name":`, m.Name)
	w.optStr(`,"encryptedValue":`, m.EncryptedValue)
	w.optStr(`,"encryptedValueType":`, m.EncryptedValueType)
	w.optObject(`,"metadata":`, m.Metadata)
	w.optStr(`,"subagentRunId":`, m.SubagentRunID)
	return w.done()
}

func (m *ToolMessage) appendJSON(dst []byte) ([]byte, error) {
	w := openMessage(dst, m.ID, RoleTool)
	w.call(`,"content":`, m.Content.appendJSON)
	w.str(`,"toolCallId":`, m.ToolCallID)
	w.optStr(`,"error":`, m.Error)
	w.optStr(`,"encryptedValue":`, m.EncryptedValue)
	w.optStr(`,"encryptedValueType":`, m.EncryptedValueType)
	w.optObject(`,"metadata":`, m.Metadata)
	w.optStr(`,"subagentRunId":`, m.SubagentRunID)
	return w.done()
}

func (m *ActivityMessage) appendJSON(dst []byte) ([]byte, error) {
	w := openMessage(dst, m.ID, RoleActivity)
	w.str(`,"activityType":`, m.ActivityType)
	w.object(`,"content":`, m.Content)
	w.optObject(`,"metadata":`, m.Metadata)
	w.optStr(`,"subagentRunId":`, m.SubagentRunID)
	return w.done()
}

func (m *ReasoningMessage) appendJSON(dst []byte) ([]byte, error) {
	w := openMessage(dst, m.ID, RoleReasoning)
	w.str(`,"content":`, m.Content)
	w.optStr(`,"encryptedValue":`, m.EncryptedValue)
	w.optStr(`,"encryptedValueType":`, m.EncryptedValueType)
	w.optObject(`,"metadata":`, m.Metadata)
	w.optStr(`,"subagentRunId":`, m.SubagentRunID)
	return w.done()
}

// MarshalJSON implements json.Marshaler: id and role first, then the
// role's fields.
func (m *DeveloperMessage) MarshalJSON() ([]byte, error) { return marshal("message", m.appendJSON) }

// MarshalJSON implements json.Marshaler: id and role first, then the
// role's fields.
func (m *SystemMessage) MarshalJSON() ([]byte, error) { return marshal("message", m.appendJSON) }

// MarshalJSON implements json.Marshaler: id and role first, then the
// role's fields. Empty Content is left out (never null).
func (m *AssistantMessage) MarshalJSON() ([]byte, error) { return marshal("message", m.appendJSON) }

// MarshalJSON implements json.Marshaler: id and role first, then the
// role's fields.
func (m *UserMessage) MarshalJSON() ([]byte, error) { return marshal("message", m.appendJSON) }

// MarshalJSON implements json.Marshaler: id and role first, then the
// role's fields.
func (m *ToolMessage) MarshalJSON() ([]byte, error) { return marshal("message", m.appendJSON) }

// MarshalJSON implements json.Marshaler: id and role first, then the
// role's fields. A nil Content is written as {}.
func (m *ActivityMessage) MarshalJSON() ([]byte, error) { return marshal("message", m.appendJSON) }

// MarshalJSON implements json.Marshaler: id and role first, then the
// role's fields.
func (m *ReasoningMessage) MarshalJSON() ([]byte, error) { return marshal("message", m.appendJSON) }

func (c ToolCall) appendJSON(dst []byte) ([]byte, error) {
	w := objWriter{b: dst}
	w.b = append(w.b, `{"id":`...)
	w.b = jsonx.AppendString(w.b, c.ID)
	w.b = append(w.b, `,"type":"function","function":{"name":`...)
	w.b = jsonx.AppendString(w.b, c.Function.Name)
	w.b = append(w.b, `,"arguments":`...)
	w.b = jsonx.AppendString(w.b, c.Function.Arguments)
	w.b = append(w.b, '}')
	w.optStr(`,"encryptedValue":`, c.EncryptedValue)
	w.optStr(`,"encryptedValueType":`, c.EncryptedValueType)
	w.optObject(`,"metadata":`, c.Metadata)
	return w.done()
}

// MarshalJSON implements json.Marshaler; "type" is always "function".
func (c ToolCall) MarshalJSON() ([]byte, error) { return marshal("tool call", c.appendJSON) }

// appendJSON writes the string form, or the parts array when Parts is
// non-nil.
func (c Content) appendJSON(dst []byte) ([]byte, error) {
	if c.Parts == nil {
		return jsonx.AppendString(dst, c.Text), nil
	}
	dst = append(dst, '[')
	var err error
	for i := range c.Parts {
		if i > 0 {
			dst = append(dst, ',')
		}
		if dst, err = c.Parts[i].appendJSON(dst); err != nil {
			return dst, jsonx.AtIndex(i, err)
		}
	}
	return append(dst, ']'), nil
}

// MarshalJSON implements json.Marshaler: a JSON string, or an array of
// parts when Parts is non-nil.
func (c Content) MarshalJSON() ([]byte, error) { return marshal("content", c.appendJSON) }

// missingSourceError reports a media part without a source.
type missingSourceError PartType

func (e missingSourceError) Error() string { return string(e) + " part has no source" }

func (p ContentPart) appendJSON(dst []byte) ([]byte, error) {
	w := objWriter{b: dst}
	w.str(`{"type":`, string(p.Type))
	switch {
	case p.Type == PartText:
		w.str(`,"text":`, p.Text)
	case p.Source != nil:
		w.b = append(w.b, `,"source":`...)
		w.b = p.Source.appendJSON(w.b)
	case p.Type == PartImage || p.Type == PartAudio || p.Type == PartVideo || p.Type == PartDocument:
		return dst, missingSourceError(p.Type)
	default:
		// A part type from a later protocol version: keep what it has.
		w.optStr(`,"text":`, p.Text)
	}
	w.optStr(`,"id":`, p.ID)
	w.optValue(`,"metadata":`, p.Metadata)
	return w.done()
}

// MarshalJSON implements json.Marshaler. A media part needs a Source.
func (p ContentPart) MarshalJSON() ([]byte, error) { return marshal("content part", p.appendJSON) }

func (s PartSource) appendJSON(dst []byte) []byte {
	w := objWriter{b: dst}
	w.str(`{"type":`, string(s.Type))
	w.str(`,"value":`, s.Value)
	if s.Type == SourceData {
		w.str(`,"mimeType":`, s.MimeType)
	} else {
		w.optStr(`,"mimeType":`, s.MimeType)
	}
	w.optStr(`,"provider":`, s.Provider)
	return append(w.b, '}')
}

// MarshalJSON implements json.Marshaler. mimeType is always written for a
// data source, where it is required.
func (s PartSource) MarshalJSON() ([]byte, error) { return s.appendJSON(nil), nil }

// appendJSON writes the outcome with only the members its type has:
// pendingToolCallIds for a non-empty success list, interrupts (always, even
// empty) for an interrupt.
func (o *Outcome) appendJSON(dst []byte) ([]byte, error) {
	w := objWriter{b: dst}
	w.str(`{"type":`, string(o.Type))
	switch o.Type {
	case OutcomeSuccess:
		if len(o.PendingToolCallIDs) > 0 {
			w.strings(`,"pendingToolCallIds":`, o.PendingToolCallIDs)
		}
	case OutcomeInterrupt:
		w.b = append(w.b, `,"interrupts":[`...)
		for i := range o.Interrupts {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			if w.b, w.err = o.Interrupts[i].appendJSON(w.b); w.err != nil {
				return w.b, jsonx.At("interrupts", jsonx.AtIndex(i, w.err))
			}
		}
		w.b = append(w.b, ']')
	}
	return w.done()
}

// MarshalJSON implements json.Marshaler.
func (o Outcome) MarshalJSON() ([]byte, error) { return marshal("outcome", o.appendJSON) }

func (in Interrupt) appendJSON(dst []byte) ([]byte, error) {
	w := objWriter{b: dst}
	w.str(`{"id":`, in.ID)
	w.str(`,"reason":`, in.Reason)
	w.optStr(`,"message":`, in.Message)
	w.optStr(`,"toolCallId":`, in.ToolCallID)
	w.optObject(`,"responseSchema":`, in.ResponseSchema)
	w.optStr(`,"expiresAt":`, in.ExpiresAt)
	w.optObject(`,"metadata":`, in.Metadata)
	w.optStr(`,"subagentRunId":`, in.SubagentRunID)
	return w.done()
}

// MarshalJSON implements json.Marshaler.
func (in Interrupt) MarshalJSON() ([]byte, error) { return marshal("interrupt", in.appendJSON) }

func (r ResumeEntry) appendJSON(dst []byte) ([]byte, error) {
	w := objWriter{b: dst}
	w.str(`{"interruptId":`, r.InterruptID)
	w.str(`,"status":`, string(r.Status))
	w.optValue(`,"payload":`, r.Payload)
	w.optObject(`,"metadata":`, r.Metadata)
	return w.done()
}

// MarshalJSON implements json.Marshaler. A nil Payload is left out.
func (r ResumeEntry) MarshalJSON() ([]byte, error) { return marshal("resume entry", r.appendJSON) }

func (u TokenUsage) appendJSON(dst []byte) []byte {
	w := objWriter{b: append(dst, '{')}
	// Every member is optional, so the first one written has no comma.
	start := len(w.b)
	w.optStr(`,"provider":`, u.Provider)
	w.optStr(`,"model":`, u.Model)
	w.optInt(`,"inputTokens":`, u.InputTokens)
	w.optInt(`,"outputTokens":`, u.OutputTokens)
	w.optInt(`,"totalTokens":`, u.TotalTokens)
	w.optInt(`,"reasoningTokens":`, u.ReasoningTokens)
	w.optInt(`,"cachedInputTokens":`, u.CachedInputTokens)
	w.optInt(`,"cacheWriteInputTokens":`, u.CacheWriteInputTokens)
	if len(w.b) > start {
		w.b = append(w.b[:start], w.b[start+1:]...)
	}
	return append(w.b, '}')
}

// MarshalJSON implements json.Marshaler. Nil counts are left out: absent
// means "not reported".
func (u TokenUsage) MarshalJSON() ([]byte, error) { return u.appendJSON(nil), nil }

func (t Tool) appendJSON(dst []byte) ([]byte, error) {
	w := objWriter{b: dst}
	w.str(`{"name":`, t.Name)
	w.str(`,"description":`, t.Description)
	w.optValue(`,"parameters":`, t.Parameters)
	w.optObject(`,"metadata":`, t.Metadata)
	return w.done()
}

// MarshalJSON implements json.Marshaler. Nil Parameters are left out.
func (t Tool) MarshalJSON() ([]byte, error) { return marshal("tool", t.appendJSON) }

func (c ContextItem) appendJSON(dst []byte) []byte {
	w := objWriter{b: dst}
	w.str(`{"description":`, c.Description)
	w.str(`,"value":`, c.Value)
	return append(w.b, '}')
}

// MarshalJSON implements json.Marshaler.
func (c ContextItem) MarshalJSON() ([]byte, error) { return c.appendJSON(nil), nil }

func (o *SubagentOutcome) appendJSON(dst []byte) []byte {
	w := objWriter{b: dst}
	w.str(`{"type":`, o.Type)
	if len(o.InterruptIDs) > 0 {
		w.strings(`,"interruptIds":`, o.InterruptIDs)
	}
	return append(w.b, '}')
}

// MarshalJSON implements json.Marshaler. Empty InterruptIDs are left out.
func (o SubagentOutcome) MarshalJSON() ([]byte, error) { return o.appendJSON(nil), nil }

// appendJSON writes the input with messages, tools and context always
// present (as [] when empty): pre-1.0 clients require tools and context
// (AG-UI 1.0, docs.ag-ui.com) and 1.0 clients accept them.
func (in *RunAgentInput) appendJSON(dst []byte) ([]byte, error) {
	w := objWriter{b: dst}
	w.str(`{"threadId":`, in.ThreadID)
	w.str(`,"runId":`, in.RunID)
	w.optStr(`,"parentRunId":`, in.ParentRunID)
	w.optStr(`,"protocolVersion":`, in.ProtocolVersion)
	w.optValue(`,"state":`, in.State)
	w.call(`,"messages":`, func(b []byte) ([]byte, error) { return appendMessages(b, in.Messages) })
	if w.err != nil {
		return w.b, w.err
	}
	w.b = append(w.b, `,"tools":[`...)
	for i := range in.Tools {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		if w.b, w.err = in.Tools[i].appendJSON(w.b); w.err != nil {
			return w.b, jsonx.At("tools", jsonx.AtIndex(i, w.err))
		}
	}
	w.b = append(w.b, `],"context":[`...)
	for i := range in.Context {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.b = in.Context[i].appendJSON(w.b)
	}
	w.b = append(w.b, ']')
	w.optValue(`,"forwardedProps":`, in.ForwardedProps)
	if len(in.Resume) > 0 {
		w.b = append(w.b, `,"resume":[`...)
		for i := range in.Resume {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			if w.b, w.err = in.Resume[i].appendJSON(w.b); w.err != nil {
				return w.b, jsonx.At("resume", jsonx.AtIndex(i, w.err))
			}
		}
		w.b = append(w.b, ']')
	}
	return w.done()
}

// MarshalJSON implements json.Marshaler; see appendJSON for the members
// that are always written.
func (in RunAgentInput) MarshalJSON() ([]byte, error) { return marshal("input", in.appendJSON) }

// appendJSON writes from for move and copy, and value for add, replace and
// test (null when nil); an operation never carries the member it does not
// define. An op from a later RFC revision keeps whichever members are set.
func (op *PatchOp) appendJSON(dst []byte) ([]byte, error) {
	w := objWriter{b: dst}
	w.str(`{"op":`, op.Op)
	switch op.Op {
	case "add", "replace", "test":
		w.str(`,"path":`, op.Path)
		w.value(`,"value":`, op.Value)
	case "remove":
		w.str(`,"path":`, op.Path)
	case "move", "copy":
		w.str(`,"from":`, op.From)
		w.str(`,"path":`, op.Path)
	default:
		w.optStr(`,"from":`, op.From)
		w.str(`,"path":`, op.Path)
		w.optValue(`,"value":`, op.Value)
	}
	return w.done()
}

// MarshalJSON implements json.Marshaler: unlike the struct tags suggest,
// a nil Value is written as null for add, replace and test.
func (op PatchOp) MarshalJSON() ([]byte, error) { return marshal("patch operation", op.appendJSON) }
