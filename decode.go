package agui

import (
	"strings"

	"github.com/agui-go/agui/internal/jsonx"
)

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
	v, perr := jsonx.ParseObject(data)
	if perr != nil {
		return nil, inputError(perr)
	}
	d := &decoder{}
	o := d.Object(v)
	t := EventType(o.Str("type"))
	if d.Err() != nil {
		return nil, inputError(d.Err())
	}
	ev := d.event(t, o)
	if ev == nil {
		d.Fail("type", "unknown event type %q", string(t))
	}
	if d.Err() != nil {
		return nil, inputError(d.Err())
	}
	b := ev.base()
	if ts := o.OptInt("timestamp", -jsonx.MaxSafeInteger, jsonx.MaxSafeInteger); ts != nil {
		b.Timestamp = *ts
	}
	b.RawEvent = o.OptRaw("rawEvent")
	b.Metadata = o.OptMap("metadata")
	if a, ok := ev.(Attributed); ok {
		a.SetSubagent(o.OptStr("subagentRunId"))
	}
	if d.Err() != nil {
		return nil, inputError(d.Err())
	}
	return ev, nil
}

// decoder is the path-tracking JSON decoder with the methods that map the
// protocol's schemas onto its Go types (this file, decode_input.go and
// decode_message.go). Its first error is a *jsonx.DecodeError, which
// leaves the package as an *InputError (see inputError).
//
// Messages and tool calls come from slabs, a few allocations for a whole
// thread; decoded and remaining count the messages of the array at hand,
// so that a slab's chunks stay within what the array may still ask of it
// (see decoder.more).
type decoder struct {
	jsonx.Decoder
	decoded    int
	remaining  int
	developers jsonx.Slab[DeveloperMessage]
	systems    jsonx.Slab[SystemMessage]
	assistants jsonx.Slab[AssistantMessage]
	users      jsonx.Slab[UserMessage]
	toolMsgs   jsonx.Slab[ToolMessage]
	activities jsonx.Slab[ActivityMessage]
	reasonings jsonx.Slab[ReasoningMessage]
	calls      jsonx.Slab[ToolCall]
}

// textRoles returns the roles a text message may take.
func textRoles() []string {
	return []string{string(RoleDeveloper), string(RoleSystem), string(RoleAssistant), string(RoleUser)}
}

// event decodes the type-specific members of an event of type t; it
// returns nil for an unknown type.
func (d *decoder) event(t EventType, o *jsonx.Object) Event {
	switch t {
	case TypeTextMessageStart:
		return &TextMessageStart{MessageID: o.Str("messageId"),
			Role: Role(o.Enum("role", false, "role", textRoles()...)), Name: o.OptStr("name")}
	case TypeTextMessageContent:
		return &TextMessageContent{MessageID: o.Str("messageId"), Delta: o.Str("delta")}
	case TypeTextMessageEnd:
		return &TextMessageEnd{MessageID: o.Str("messageId")}
	case TypeTextMessageChunk:
		return &TextMessageChunk{MessageID: o.OptStr("messageId"),
			Role:  Role(o.Enum("role", false, "role", textRoles()...)),
			Delta: o.OptStr("delta"), Name: o.OptStr("name")}
	case TypeToolCallStart:
		return &ToolCallStart{ToolCallID: o.Str("toolCallId"), ToolCallName: o.Str("toolCallName"),
			ParentMessageID: o.OptStr("parentMessageId")}
	case TypeToolCallArgs:
		return &ToolCallArgs{ToolCallID: o.Str("toolCallId"), Delta: o.Str("delta")}
	case TypeToolCallEnd:
		return &ToolCallEnd{ToolCallID: o.Str("toolCallId")}
	case TypeToolCallChunk:
		return &ToolCallChunk{ToolCallID: o.OptStr("toolCallId"), ToolCallName: o.OptStr("toolCallName"),
			ParentMessageID: o.OptStr("parentMessageId"), Delta: o.OptStr("delta")}
	case TypeToolCallResult:
		return &ToolCallResult{MessageID: o.Str("messageId"), ToolCallID: o.Str("toolCallId"),
			Content: d.requiredContent(o), Role: Role(o.Enum("role", false, "role", string(RoleTool)))}
	case TypeStateSnapshot:
		return &StateSnapshot{Snapshot: o.RawValue("snapshot")}
	case TypeStateDelta:
		return &StateDelta{Delta: d.patch(o.Array("delta", true))}
	case TypeMessagesSnapshot:
		return &MessagesSnapshot{Messages: d.messages(o.Array("messages", true))}
	case TypeActivitySnapshot:
		return &ActivitySnapshot{MessageID: o.Str("messageId"), ActivityType: o.Str("activityType"),
			Content: d.activityContent(o), Replace: o.OptBool("replace")}
	case TypeActivityDelta:
		return &ActivityDelta{MessageID: o.Str("messageId"), ActivityType: o.Str("activityType"),
			Patch: d.patch(o.Array("patch", true))}
	case TypeRaw:
		return &Raw{Event: o.RawValue("event"), Source: o.OptStr("source")}
	case TypeCustom:
		return &Custom{Name: o.Str("name"), Value: o.RawValue("value")}
	case TypeRunStarted:
		e := &RunStarted{ThreadID: o.Str("threadId"), RunID: o.Str("runId"),
			ParentRunID: o.OptStr("parentRunId"), ProtocolVersion: o.OptStr("protocolVersion")}
		if in, ok := o.Object("input", false); ok {
			e.Input = d.input(in, true)
		}
		return e
	case TypeRunFinished:
		return &RunFinished{ThreadID: o.Str("threadId"), RunID: o.Str("runId"),
			Result: o.OptRaw("result"), Outcome: d.outcome(o), Usage: d.usage(o)}
	case TypeRunError:
		return &RunError{Message: o.Str("message"), Code: o.OptStr("code"), Usage: d.usage(o)}
	case TypeStepStarted:
		return &StepStarted{StepName: o.Str("stepName")}
	case TypeStepFinished:
		return &StepFinished{StepName: o.Str("stepName")}
	case TypeReasoningStart:
		return &ReasoningStart{MessageID: o.Str("messageId")}
	case TypeReasoningMessageStart:
		e := &ReasoningMessageStart{MessageID: o.Str("messageId")}
		o.Enum("role", true, "role", string(RoleReasoning))
		return e
	case TypeReasoningMessageContent:
		return &ReasoningMessageContent{MessageID: o.Str("messageId"), Delta: o.Str("delta")}
	case TypeReasoningMessageEnd:
		return &ReasoningMessageEnd{MessageID: o.Str("messageId")}
	case TypeReasoningMessageChunk:
		return &ReasoningMessageChunk{MessageID: o.OptStr("messageId"), Delta: o.OptStr("delta")}
	case TypeReasoningEnd:
		return &ReasoningEnd{MessageID: o.Str("messageId")}
	case TypeReasoningEncryptedValue:
		return &ReasoningEncryptedValue{
			Subtype: EncryptedSubtype(o.Enum("subtype", true, "subtype",
				string(EncryptedToolCall), string(EncryptedMessage))),
			EntityID: o.Str("entityId"), EncryptedValue: o.Str("encryptedValue"),
			EncryptedValueType: o.OptStr("encryptedValueType")}
	case TypeSubagentStarted:
		return &SubagentStarted{SubagentRunID: o.Str("subagentRunId"), Name: o.Str("name"),
			Description: o.OptStr("description"), ParentSubagentRunID: o.OptStr("parentSubagentRunId"),
			ParentToolCallID: o.OptStr("parentToolCallId"), ParentMessageID: o.OptStr("parentMessageId")}
	case TypeSubagentFinished:
		return &SubagentFinished{SubagentRunID: o.Str("subagentRunId"), Result: o.OptRaw("result"),
			Outcome: d.subagentOutcome(o)}
	case TypeSubagentError:
		return &SubagentError{SubagentRunID: o.Str("subagentRunId"), Message: o.Str("message"),
			Code: o.OptStr("code")}
	}
	return nil
}

// outcome decodes RUN_FINISHED's optional outcome.
func (d *decoder) outcome(o *jsonx.Object) *Outcome {
	oo, ok := o.Object("outcome", false)
	if !ok {
		return nil
	}
	out := &Outcome{Type: OutcomeType(oo.Enum("type", true, "outcome type",
		string(OutcomeSuccess), string(OutcomeInterrupt), string(OutcomeCancelled)))}
	switch out.Type {
	case OutcomeSuccess:
		out.PendingToolCallIDs = oo.OptStrings("pendingToolCallIds")
	case OutcomeInterrupt:
		elems := oo.Array("interrupts", true)
		if elems != nil && len(elems) == 0 {
			d.Fail(jsonx.MemberPath(oo.Path(), "interrupts"), "expected at least one interrupt")
		}
		out.Interrupts = d.interrupts(elems)
	}
	return out
}

// interrupts decodes the interrupts of an interrupt outcome.
func (d *decoder) interrupts(elems []jsonx.Value) []Interrupt {
	out := make([]Interrupt, 0, len(elems))
	for _, e := range elems {
		o := d.Object(e)
		out = append(out, Interrupt{
			ID: o.Str("id"), Reason: o.Str("reason"), Message: o.OptStr("message"),
			ToolCallID: o.OptStr("toolCallId"), ResponseSchema: o.OptMap("responseSchema"),
			ExpiresAt: o.OptStr("expiresAt"), Metadata: o.OptMap("metadata"),
			SubagentRunID: o.OptStr("subagentRunId"),
		})
	}
	return out
}

// subagentOutcome decodes SUBAGENT_FINISHED's optional outcome.
func (d *decoder) subagentOutcome(o *jsonx.Object) *SubagentOutcome {
	oo, ok := o.Object("outcome", false)
	if !ok {
		return nil
	}
	out := &SubagentOutcome{Type: oo.Enum("type", true, "outcome type", "success", "suspended")}
	if out.Type == "suspended" {
		out.InterruptIDs = oo.OptStrings("interruptIds")
	}
	return out
}

// usage decodes the optional usage array of RUN_FINISHED and RUN_ERROR.
func (d *decoder) usage(o *jsonx.Object) []TokenUsage {
	elems := o.Array("usage", false)
	if elems == nil {
		return nil
	}
	out := make([]TokenUsage, 0, len(elems))
	for _, e := range elems {
		u := d.Object(e)
		out = append(out, TokenUsage{
			Provider: u.OptStr("provider"), Model: u.OptStr("model"),
			InputTokens:           u.OptInt("inputTokens", 0, jsonx.MaxSafeInteger),
			OutputTokens:          u.OptInt("outputTokens", 0, jsonx.MaxSafeInteger),
			TotalTokens:           u.OptInt("totalTokens", 0, jsonx.MaxSafeInteger),
			ReasoningTokens:       u.OptInt("reasoningTokens", 0, jsonx.MaxSafeInteger),
			CachedInputTokens:     u.OptInt("cachedInputTokens", 0, jsonx.MaxSafeInteger),
			CacheWriteInputTokens: u.OptInt("cacheWriteInputTokens", 0, jsonx.MaxSafeInteger),
		})
	}
	return out
}

// patch decodes a JSON Patch (STATE_DELTA.delta, ACTIVITY_DELTA.patch).
func (d *decoder) patch(elems []jsonx.Value) []PatchOp {
	out := make([]PatchOp, 0, len(elems))
	for _, e := range elems {
		o := d.Object(e)
		op := PatchOp{Op: o.Enum("op", true, "op", "add", "remove", "replace", "move", "copy", "test")}
		op.Path = d.pointer(o, "path")
		switch op.Op {
		case "move", "copy":
			op.From = d.pointer(o, "from")
		case "add", "replace", "test":
			op.Value = o.RawValue("value")
		}
		out = append(out, op)
	}
	return out
}

// pointer decodes a required RFC 6901 JSON Pointer: "" or "/" followed by
// reference tokens in which "~" is only ever escaped as "~0" or "~1".
func (d *decoder) pointer(o *jsonx.Object, name string) string {
	v, ok := o.Required(name)
	if !ok {
		return ""
	}
	ptr := d.Str(v)
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
		d.FailAt(v, "invalid JSON pointer %q", ptr)
		return ""
	}
	return ptr
}

// more bounds how many more values a slab that has handed out taken will
// be asked for while the array at hand is decoded: the messages left, in
// the proportion of the slab's share so far, with some slack. Bounded by
// the messages left alone, each role's chunks doubled past what it needed:
// 5 % of the bytes BenchmarkDecodeInput allocated (issue 26).
func (d *decoder) more(taken int) int {
	if d.decoded == 0 {
		return d.remaining
	}
	return d.remaining*(taken+1)/d.decoded + 1
}
