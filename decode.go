package agui

import "strings"

// DecodeEvent decodes one AG-UI event from its JSON encoding into its Go
// type, chosen by the "type" member: a TEXT_MESSAGE_CONTENT becomes a
// *TextMessageContent, and so on for all 31 types.
//
// The event is checked against the 1.0 schema: a missing required field, a
// value of the wrong type, an unknown enum value (role, outcome type, part
// type, patch op…), a non-integer timestamp or token count, or an invalid
// JSON Pointer is an error. An unknown event type is an error too. Unknown
// keys are ignored, and an optional field holding null reads as absent.
//
// Values the protocol passes through without reading (STATE_SNAPSHOT's
// snapshot, RAW's event, CUSTOM's value, results, rawEvent, patch values,
// tool parameters, payloads, state, forwardedProps, part metadata) decode
// as compact json.RawMessage; a required one that is null stays
// json.RawMessage("null"). Object-typed fields declared as map[string]any
// (metadata, activity content, response schemas) hold plain Go values with
// numbers as json.Number, so that they re-encode digit for digit.
//
// Every error is an *InputError whose Field is the JSON path of the bad
// value, for example "input.messages[0].role" or "delta[1].path".
func DecodeEvent(data []byte) (Event, error) {
	v, perr := parseDocument(data)
	if perr != nil {
		return nil, perr
	}
	d := &decoder{}
	o := d.object(v)
	t := EventType(o.str("type"))
	if d.err != nil {
		return nil, d.err
	}
	ev := d.event(t, o)
	if ev == nil {
		d.fail("type", "unknown event type %q", string(t))
	}
	if d.err != nil {
		return nil, d.err
	}
	b := ev.base()
	if ts := o.optInt("timestamp", -maxSafeInteger, maxSafeInteger); ts != nil {
		b.Timestamp = *ts
	}
	b.RawEvent = o.optRaw("rawEvent")
	b.Metadata = o.optMap("metadata")
	if a, ok := ev.(Attributed); ok {
		a.SetSubagent(o.optStr("subagentRunId"))
	}
	if d.err != nil {
		return nil, d.err
	}
	return ev, nil
}

// textRoles returns the roles a text message may take.
func textRoles() []string {
	return []string{string(RoleDeveloper), string(RoleSystem), string(RoleAssistant), string(RoleUser)}
}

// event decodes the type-specific members of an event of type t; it
// returns nil for an unknown type.
func (d *decoder) event(t EventType, o *object) Event {
	switch t {
	case TypeTextMessageStart:
		return &TextMessageStart{MessageID: o.str("messageId"),
			Role: Role(o.enum("role", false, "role", textRoles()...)), Name: o.optStr("name")}
	case TypeTextMessageContent:
		return &TextMessageContent{MessageID: o.str("messageId"), Delta: o.str("delta")}
	case TypeTextMessageEnd:
		return &TextMessageEnd{MessageID: o.str("messageId")}
	case TypeTextMessageChunk:
		return &TextMessageChunk{MessageID: o.optStr("messageId"),
			Role:  Role(o.enum("role", false, "role", textRoles()...)),
			Delta: o.optStr("delta"), Name: o.optStr("name")}
	case TypeToolCallStart:
		return &ToolCallStart{ToolCallID: o.str("toolCallId"), ToolCallName: o.str("toolCallName"),
			ParentMessageID: o.optStr("parentMessageId")}
	case TypeToolCallArgs:
		return &ToolCallArgs{ToolCallID: o.str("toolCallId"), Delta: o.str("delta")}
	case TypeToolCallEnd:
		return &ToolCallEnd{ToolCallID: o.str("toolCallId")}
	case TypeToolCallChunk:
		return &ToolCallChunk{ToolCallID: o.optStr("toolCallId"), ToolCallName: o.optStr("toolCallName"),
			ParentMessageID: o.optStr("parentMessageId"), Delta: o.optStr("delta")}
	case TypeToolCallResult:
		return &ToolCallResult{MessageID: o.str("messageId"), ToolCallID: o.str("toolCallId"),
			Content: d.requiredContent(o), Role: Role(o.enum("role", false, "role", string(RoleTool)))}
	case TypeStateSnapshot:
		return &StateSnapshot{Snapshot: o.rawValue("snapshot")}
	case TypeStateDelta:
		return &StateDelta{Delta: d.patch(o.arr("delta", true))}
	case TypeMessagesSnapshot:
		return &MessagesSnapshot{Messages: d.messages(o.arr("messages", true))}
	case TypeActivitySnapshot:
		return &ActivitySnapshot{MessageID: o.str("messageId"), ActivityType: o.str("activityType"),
			Content: d.activityContent(o), Replace: o.optBool("replace")}
	case TypeActivityDelta:
		return &ActivityDelta{MessageID: o.str("messageId"), ActivityType: o.str("activityType"),
			Patch: d.patch(o.arr("patch", true))}
	case TypeRaw:
		return &Raw{Event: o.rawValue("event"), Source: o.optStr("source")}
	case TypeCustom:
		return &Custom{Name: o.str("name"), Value: o.rawValue("value")}
	case TypeRunStarted:
		e := &RunStarted{ThreadID: o.str("threadId"), RunID: o.str("runId"),
			ParentRunID: o.optStr("parentRunId"), ProtocolVersion: o.optStr("protocolVersion")}
		if in, ok := o.obj("input", false); ok {
			e.Input = d.input(in, true)
		}
		return e
	case TypeRunFinished:
		return &RunFinished{ThreadID: o.str("threadId"), RunID: o.str("runId"),
			Result: o.optRaw("result"), Outcome: d.outcome(o), Usage: d.usage(o)}
	case TypeRunError:
		return &RunError{Message: o.str("message"), Code: o.optStr("code"), Usage: d.usage(o)}
	case TypeStepStarted:
		return &StepStarted{StepName: o.str("stepName")}
	case TypeStepFinished:
		return &StepFinished{StepName: o.str("stepName")}
	case TypeReasoningStart:
		return &ReasoningStart{MessageID: o.str("messageId")}
	case TypeReasoningMessageStart:
		e := &ReasoningMessageStart{MessageID: o.str("messageId")}
		o.enum("role", true, "role", string(RoleReasoning))
		return e
	case TypeReasoningMessageContent:
		return &ReasoningMessageContent{MessageID: o.str("messageId"), Delta: o.str("delta")}
	case TypeReasoningMessageEnd:
		return &ReasoningMessageEnd{MessageID: o.str("messageId")}
	case TypeReasoningMessageChunk:
		return &ReasoningMessageChunk{MessageID: o.optStr("messageId"), Delta: o.optStr("delta")}
	case TypeReasoningEnd:
		return &ReasoningEnd{MessageID: o.str("messageId")}
	case TypeReasoningEncryptedValue:
		return &ReasoningEncryptedValue{
			Subtype: EncryptedSubtype(o.enum("subtype", true, "subtype",
				string(EncryptedToolCall), string(EncryptedMessage))),
			EntityID: o.str("entityId"), EncryptedValue: o.str("encryptedValue")}
	case TypeSubagentStarted:
		return &SubagentStarted{SubagentRunID: o.str("subagentRunId"), Name: o.str("name"),
			Description: o.optStr("description"), ParentSubagentRunID: o.optStr("parentSubagentRunId"),
			ParentToolCallID: o.optStr("parentToolCallId"), ParentMessageID: o.optStr("parentMessageId")}
	case TypeSubagentFinished:
		return &SubagentFinished{SubagentRunID: o.str("subagentRunId"), Result: o.optRaw("result"),
			Outcome: d.subagentOutcome(o)}
	case TypeSubagentError:
		return &SubagentError{SubagentRunID: o.str("subagentRunId"), Message: o.str("message"),
			Code: o.optStr("code")}
	}
	return nil
}

// outcome decodes RUN_FINISHED's optional outcome.
func (d *decoder) outcome(o *object) *Outcome {
	oo, ok := o.obj("outcome", false)
	if !ok {
		return nil
	}
	out := &Outcome{Type: OutcomeType(oo.enum("type", true, "outcome type",
		string(OutcomeSuccess), string(OutcomeInterrupt), string(OutcomeCancelled)))}
	switch out.Type {
	case OutcomeSuccess:
		out.PendingToolCallIDs = oo.optStrings("pendingToolCallIds")
	case OutcomeInterrupt:
		elems := oo.arr("interrupts", true)
		if elems != nil && len(elems) == 0 {
			d.fail(key(oo.path(), "interrupts"), "expected at least one interrupt")
		}
		out.Interrupts = d.interrupts(elems)
	}
	return out
}

// interrupts decodes the interrupts of an interrupt outcome.
func (d *decoder) interrupts(elems []value) []Interrupt {
	out := make([]Interrupt, 0, len(elems))
	for _, e := range elems {
		o := d.object(e)
		out = append(out, Interrupt{
			ID: o.str("id"), Reason: o.str("reason"), Message: o.optStr("message"),
			ToolCallID: o.optStr("toolCallId"), ResponseSchema: o.optMap("responseSchema"),
			ExpiresAt: o.optStr("expiresAt"), Metadata: o.optMap("metadata"),
			SubagentRunID: o.optStr("subagentRunId"),
		})
	}
	return out
}

// subagentOutcome decodes SUBAGENT_FINISHED's optional outcome.
func (d *decoder) subagentOutcome(o *object) *SubagentOutcome {
	oo, ok := o.obj("outcome", false)
	if !ok {
		return nil
	}
	out := &SubagentOutcome{Type: oo.enum("type", true, "outcome type", "success", "suspended")}
	if out.Type == "suspended" {
		out.InterruptIDs = oo.optStrings("interruptIds")
	}
	return out
}

// usage decodes the optional usage array of RUN_FINISHED and RUN_ERROR.
func (d *decoder) usage(o *object) []TokenUsage {
	elems := o.arr("usage", false)
	if elems == nil {
		return nil
	}
	out := make([]TokenUsage, 0, len(elems))
	for _, e := range elems {
		u := d.object(e)
		out = append(out, TokenUsage{
			Provider: u.optStr("provider"), Model: u.optStr("model"),
			InputTokens:           u.optInt("inputTokens", 0, maxSafeInteger),
			OutputTokens:          u.optInt("outputTokens", 0, maxSafeInteger),
			TotalTokens:           u.optInt("totalTokens", 0, maxSafeInteger),
			ReasoningTokens:       u.optInt("reasoningTokens", 0, maxSafeInteger),
			CachedInputTokens:     u.optInt("cachedInputTokens", 0, maxSafeInteger),
			CacheWriteInputTokens: u.optInt("cacheWriteInputTokens", 0, maxSafeInteger),
		})
	}
	return out
}

// patch decodes a JSON Patch (STATE_DELTA.delta, ACTIVITY_DELTA.patch).
func (d *decoder) patch(elems []value) []PatchOp {
	out := make([]PatchOp, 0, len(elems))
	for _, e := range elems {
		o := d.object(e)
		op := PatchOp{Op: o.enum("op", true, "op", "add", "remove", "replace", "move", "copy", "test")}
		op.Path = d.pointer(o, "path")
		switch op.Op {
		case "move", "copy":
			op.From = d.pointer(o, "from")
		case "add", "replace", "test":
			op.Value = o.rawValue("value")
		}
		out = append(out, op)
	}
	return out
}

// pointer decodes a required RFC 6901 JSON Pointer: "" or "/" followed by
// reference tokens in which "~" is only ever escaped as "~0" or "~1".
func (d *decoder) pointer(o *object, name string) string {
	v, ok := o.required(name)
	if !ok {
		return ""
	}
	ptr := d.str(v)
	valid := ptr == "" || ptr[0] == '/'
	for rest := ptr; valid; {
		i := strings.IndexByte(rest, '~')
		if i < 0 {
			break
		}
		valid = i+1 < len(rest) && (rest[i+1] == '0' || rest[i+1] == '1')
		rest = rest[min(i+2, len(rest)):]
	}
	if !valid {
		d.failAt(v, "invalid JSON pointer %q", ptr)
		return ""
	}
	return ptr
}
