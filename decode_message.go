package agui

import "github.com/agui-go/agui/internal/jsonx"

// DecodeMessage decodes one message of a conversation, choosing its Go type
// from its "role": *DeveloperMessage, *SystemMessage, *AssistantMessage,
// *UserMessage, *ToolMessage, *ActivityMessage or *ReasoningMessage.
//
// It checks the message the way DecodeInput checks each element of
// messages: an unknown role, a missing required field or a value of the
// wrong type is an *InputError naming the field; unknown keys are ignored,
// and an optional field holding null reads as absent.
func DecodeMessage(data []byte) (Message, error) {
	v, perr := jsonx.ParseObject(data)
	if perr != nil {
		return nil, inputError(perr)
	}
	d := &decoder{}
	m := d.message(v)
	if d.Err() != nil {
		return nil, inputError(d.Err())
	}
	return m, nil
}

// UnmarshalJSON decodes content in either of its forms: a JSON string, or
// an array of content parts (each checked like DecodeInput checks message
// content). A JSON null leaves c unchanged, as encoding/json expects of an
// Unmarshaler. Errors are *InputError values whose Field is relative to the
// content ("[1].source.type").
func (c *Content) UnmarshalJSON(data []byte) error {
	v, perr := jsonx.Parse(data)
	if perr != nil {
		return inputError(perr)
	}
	if v.IsNull() {
		return nil
	}
	d := &decoder{}
	content := d.content(v)
	if d.Err() != nil {
		return inputError(d.Err())
	}
	*c = content
	return nil
}

// messageRoles returns the roles of the Message union, the
// discriminator's accepted values.
func messageRoles() []string {
	return []string{
		string(RoleDeveloper), string(RoleSystem), string(RoleAssistant), string(RoleUser),
		string(RoleTool), string(RoleActivity), string(RoleReasoning),
	}
}

// message decodes one element of the Message union.
func (d *decoder) message(v jsonx.Value) Message {
	o := d.Object(v)
	role := Role(o.Enum("role", true, "role", messageRoles()...))
	if d.Err() != nil {
		return nil
	}
	var m Message
	switch role {
	case RoleDeveloper:
		p := d.developers.New(d.more(d.developers.Taken()))
		*p = DeveloperMessage{
			ID: o.Str("id"), Content: o.Str("content"), Name: o.OptStr("name"),
			EncryptedValue: o.OptStr("encryptedValue"), EncryptedValueType: o.OptStr("encryptedValueType"), Metadata: o.OptMap("metadata"),
			SubagentRunID: o.OptStr("subagentRunId"),
		}
		m = p
	case RoleSystem:
		p := d.systems.New(d.more(d.systems.Taken()))
		*p = SystemMessage{
			ID: o.Str("id"), Content: o.Str("content"), Name: o.OptStr("name"),
			EncryptedValue: o.OptStr("encryptedValue"), EncryptedValueType: o.OptStr("encryptedValueType"), Metadata: o.OptMap("metadata"),
			SubagentRunID: o.OptStr("subagentRunId"),
		}
		m = p
	case RoleAssistant:
		p := d.assistants.New(d.more(d.assistants.Taken()))
		*p = AssistantMessage{
			ID: o.Str("id"), Content: o.OptStr("content"), Name: o.OptStr("name"),
			ToolCalls: d.toolCalls(o), EncryptedValue: o.OptStr("encryptedValue"), EncryptedValueType: o.OptStr("encryptedValueType"),
			Metadata: o.OptMap("metadata"), SubagentRunID: o.OptStr("subagentRunId"),
		}
		m = p
	case RoleUser:
		p := d.users.New(d.more(d.users.Taken()))
		*p = UserMessage{
			ID: o.Str("id"), Content: d.requiredContent(o), Name: o.OptStr("name"),
			EncryptedValue: o.OptStr("encryptedValue"), EncryptedValueType: o.OptStr("encryptedValueType"), Metadata: o.OptMap("metadata"),
			SubagentRunID: o.OptStr("subagentRunId"),
		}
		m = p
	case RoleTool:
		p := d.toolMsgs.New(d.more(d.toolMsgs.Taken()))
		*p = ToolMessage{
			ID: o.Str("id"), Content: d.requiredContent(o), ToolCallID: o.Str("toolCallId"),
			Error: o.OptStr("error"), EncryptedValue: o.OptStr("encryptedValue"), EncryptedValueType: o.OptStr("encryptedValueType"),
			Metadata: o.OptMap("metadata"), SubagentRunID: o.OptStr("subagentRunId"),
		}
		m = p
	case RoleActivity:
		p := d.activities.New(d.more(d.activities.Taken()))
		*p = ActivityMessage{
			ID: o.Str("id"), ActivityType: o.Str("activityType"), Content: d.activityContent(o),
			Metadata: o.OptMap("metadata"), SubagentRunID: o.OptStr("subagentRunId"),
		}
		m = p
	case RoleReasoning:
		p := d.reasonings.New(d.more(d.reasonings.Taken()))
		*p = ReasoningMessage{
			ID: o.Str("id"), Content: o.Str("content"), EncryptedValue: o.OptStr("encryptedValue"), EncryptedValueType: o.OptStr("encryptedValueType"),
			Metadata: o.OptMap("metadata"), SubagentRunID: o.OptStr("subagentRunId"),
		}
		m = p
	}
	o.Finish()
	return m
}

// messages decodes an array of messages; it never returns nil for an array.
func (d *decoder) messages(elems []jsonx.Value) []Message {
	out := make([]Message, 0, len(elems))
	mark := d.Mark()
	for i, e := range elems {
		d.decoded, d.remaining = i, len(elems)-i-1
		out = append(out, d.message(e))
		if d.Err() != nil {
			return nil
		}
		d.Release(mark)
	}
	d.decoded, d.remaining = 0, 0
	return out
}

// activityContent decodes the required object content of an activity.
func (d *decoder) activityContent(o *jsonx.Object) map[string]any {
	if v, ok := o.Required("content"); ok {
		if v.IsNull() {
			d.FailType(v, "object")
			return nil
		}
		return d.AnyObject(v)
	}
	return nil
}

// toolCalls decodes an assistant message's optional toolCalls.
func (d *decoder) toolCalls(o *jsonx.Object) []ToolCall {
	elems := o.Array("toolCalls", false)
	if elems == nil {
		return nil
	}
	out := d.calls.Take(len(elems), d.more(d.calls.Taken()))[:0]
	for _, e := range elems {
		c := d.Object(e)
		tc := ToolCall{ID: c.Str("id")}
		// "function" is the only type; an absent type is tolerated since
		// nothing else could be meant.
		c.Enum("type", false, "tool call type", "function")
		if f, ok := c.Object("function", true); ok {
			tc.Function = FunctionCall{Name: f.Str("name"), Arguments: f.Str("arguments")}
			f.Finish()
		}
		tc.EncryptedValue = c.OptStr("encryptedValue")
		tc.EncryptedValueType = c.OptStr("encryptedValueType")
		tc.Metadata = c.OptMap("metadata")
		c.Finish()
		out = append(out, tc)
	}
	return out
}

// requiredContent decodes the required content member of a user or tool
// message or a TOOL_CALL_RESULT.
func (d *decoder) requiredContent(o *jsonx.Object) Content {
	if v, ok := o.Required("content"); ok {
		return d.content(v)
	}
	return Content{}
}

// content decodes a string or an array of content parts.
func (d *decoder) content(v jsonx.Value) Content {
	switch v.Kind() {
	case "string":
		return Content{Text: d.Str(v)}
	case "array":
		elems := d.Array(v)
		parts := make([]ContentPart, 0, len(elems))
		for _, e := range elems {
			parts = append(parts, d.part(e))
		}
		return Content{Parts: parts}
	default:
		d.FailType(v, "string or array")
		return Content{}
	}
}

// partTypes returns the content part types, the union's discriminator
// values.
func partTypes() []string {
	return []string{string(PartText), string(PartImage), string(PartAudio), string(PartVideo), string(PartDocument)}
}

// part decodes one content part.
func (d *decoder) part(v jsonx.Value) ContentPart {
	o := d.Object(v)
	p := ContentPart{Type: PartType(o.Enum("type", true, "part type", partTypes()...))}
	p.ID = o.OptStr("id")
	if p.Type == PartText {
		p.Text = o.Str("text")
	} else if s, ok := o.Object("source", true); ok && d.Err() == nil {
		p.Source = d.source(s)
	}
	p.Metadata = o.OptRaw("metadata")
	o.Finish()
	return p
}

// source decodes a media part's source.
func (d *decoder) source(o *jsonx.Object) *PartSource {
	s := &PartSource{Type: SourceType(o.Enum("type", true, "source type",
		string(SourceData), string(SourceURL), string(SourceFile)))}
	s.Value = o.Str("value")
	if s.Type == SourceData {
		s.MimeType = o.Str("mimeType")
	} else {
		s.MimeType = o.OptStr("mimeType")
	}
	if s.Type == SourceFile {
		s.Provider = o.OptStr("provider")
	}
	o.Finish()
	return s
}
