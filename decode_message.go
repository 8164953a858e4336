package agui

// DecodeMessage decodes one message of a conversation, choosing its Go type
// from its "role": *DeveloperMessage, *SystemMessage, *AssistantMessage,
// *UserMessage, *ToolMessage, *ActivityMessage or *ReasoningMessage.
//
// It checks the message the way DecodeInput checks each element of
// messages: an unknown role, a missing required field or a value of the
// wrong type is an *InputError naming the field; unknown keys are ignored,
// and an optional field holding null reads as absent.
func DecodeMessage(data []byte) (Message, error) {
	v, perr := parseDocument(data)
	if perr != nil {
		return nil, perr
	}
	d := &decoder{}
	m := d.message(v)
	if d.err != nil {
		return nil, d.err
	}
	return m, nil
}

// UnmarshalJSON decodes content in either of its forms: a JSON string, or
// an array of content parts (each checked like DecodeInput checks message
// content). A JSON null leaves c unchanged, as encoding/json expects of an
// Unmarshaler. Errors are *InputError values whose Field is relative to the
// content ("[1].source.type").
func (c *Content) UnmarshalJSON(data []byte) error {
	v, perr := parseValue(data)
	if perr != nil {
		return perr
	}
	if v.isNull() {
		return nil
	}
	d := &decoder{}
	content := d.content(v)
	if d.err != nil {
		return d.err
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
func (d *decoder) message(v value) Message {
	o := d.object(v)
	role := Role(o.enum("role", true, "role", messageRoles()...))
	if d.err != nil {
		return nil
	}
	var m Message
	switch role {
	case RoleDeveloper:
		m = &DeveloperMessage{
			ID: o.str("id"), Content: o.str("content"), Name: o.optStr("name"),
			EncryptedValue: o.optStr("encryptedValue"), Metadata: o.optMap("metadata"),
			SubagentRunID: o.optStr("subagentRunId"),
		}
	case RoleSystem:
		m = &SystemMessage{
			ID: o.str("id"), Content: o.str("content"), Name: o.optStr("name"),
			EncryptedValue: o.optStr("encryptedValue"), Metadata: o.optMap("metadata"),
			SubagentRunID: o.optStr("subagentRunId"),
		}
	case RoleAssistant:
		m = &AssistantMessage{
			ID: o.str("id"), Content: o.optStr("content"), Name: o.optStr("name"),
			ToolCalls: d.toolCalls(o), EncryptedValue: o.optStr("encryptedValue"),
			Metadata: o.optMap("metadata"), SubagentRunID: o.optStr("subagentRunId"),
		}
	case RoleUser:
		m = &UserMessage{
			ID: o.str("id"), Content: d.requiredContent(o), Name: o.optStr("name"),
			EncryptedValue: o.optStr("encryptedValue"), Metadata: o.optMap("metadata"),
			SubagentRunID: o.optStr("subagentRunId"),
		}
	case RoleTool:
		m = &ToolMessage{
			ID: o.str("id"), Content: d.requiredContent(o), ToolCallID: o.str("toolCallId"),
			Error: o.optStr("error"), EncryptedValue: o.optStr("encryptedValue"),
			Metadata: o.optMap("metadata"), SubagentRunID: o.optStr("subagentRunId"),
		}
	case RoleActivity:
		m = &ActivityMessage{
			ID: o.str("id"), ActivityType: o.str("activityType"), Content: d.activityContent(o),
			Metadata: o.optMap("metadata"), SubagentRunID: o.optStr("subagentRunId"),
		}
	case RoleReasoning:
		m = &ReasoningMessage{
			ID: o.str("id"), Content: o.str("content"), EncryptedValue: o.optStr("encryptedValue"),
			Metadata: o.optMap("metadata"), SubagentRunID: o.optStr("subagentRunId"),
		}
	}
	o.finish()
	return m
}

// messages decodes an array of messages; it never returns nil for an array.
func (d *decoder) messages(elems []value) []Message {
	out := make([]Message, 0, len(elems))
	for _, e := range elems {
		out = append(out, d.message(e))
		if d.err != nil {
			return nil
		}
	}
	return out
}

// activityContent decodes the required object content of an activity.
func (d *decoder) activityContent(o *object) map[string]any {
	if v, ok := o.required("content"); ok {
		if v.isNull() {
			d.failType(v, "object")
			return nil
		}
		return d.anyObject(v)
	}
	return nil
}

// toolCalls decodes an assistant message's optional toolCalls.
func (d *decoder) toolCalls(o *object) []ToolCall {
	elems := o.arr("toolCalls", false)
	if elems == nil {
		return nil
	}
	out := make([]ToolCall, 0, len(elems))
	for _, e := range elems {
		c := d.object(e)
		tc := ToolCall{ID: c.str("id")}
		// "function" is the only type; an absent type is tolerated since
		// nothing else could be meant.
		c.enum("type", false, "tool call type", "function")
		if f, ok := c.obj("function", true); ok {
			tc.Function = FunctionCall{Name: f.str("name"), Arguments: f.str("arguments")}
			f.finish()
		}
		tc.EncryptedValue = c.optStr("encryptedValue")
		tc.Metadata = c.optMap("metadata")
		c.finish()
		out = append(out, tc)
	}
	return out
}

// requiredContent decodes the required content member of a user or tool
// message or a TOOL_CALL_RESULT.
func (d *decoder) requiredContent(o *object) Content {
	if v, ok := o.required("content"); ok {
		return d.content(v)
	}
	return Content{}
}

// content decodes a string or an array of content parts.
func (d *decoder) content(v value) Content {
	switch v.kind() {
	case "string":
		return Content{Text: d.str(v)}
	case "array":
		elems := d.array(v)
		parts := make([]ContentPart, 0, len(elems))
		for _, e := range elems {
			parts = append(parts, d.part(e))
		}
		return Content{Parts: parts}
	default:
		d.failType(v, "string or array")
		return Content{}
	}
}

// partTypes returns the content part types, the union's discriminator
// values.
func partTypes() []string {
	return []string{string(PartText), string(PartImage), string(PartAudio), string(PartVideo), string(PartDocument)}
}

// part decodes one content part.
func (d *decoder) part(v value) ContentPart {
	o := d.object(v)
	p := ContentPart{Type: PartType(o.enum("type", true, "part type", partTypes()...))}
	p.ID = o.optStr("id")
	if p.Type == PartText {
		p.Text = o.str("text")
	} else if s, ok := o.obj("source", true); ok && d.err == nil {
		p.Source = d.source(s)
	}
	p.Metadata = o.optRaw("metadata")
	o.finish()
	return p
}

// source decodes a media part's source.
func (d *decoder) source(o *object) *PartSource {
	s := &PartSource{Type: SourceType(o.enum("type", true, "source type",
		string(SourceData), string(SourceURL), string(SourceFile)))}
	s.Value = o.str("value")
	if s.Type == SourceData {
		s.MimeType = o.str("mimeType")
	} else {
		s.MimeType = o.optStr("mimeType")
	}
	if s.Type == SourceFile {
		s.Provider = o.optStr("provider")
	}
	o.finish()
	return s
}
