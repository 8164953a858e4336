package agui

import (
	"bytes"
	"encoding/json"

	"google.golang.org/protobuf/types/known/structpb"

	"github.com/agui-go/agui/internal/pb"
)

// This file converts the generated protobuf types back to our events, the
// inverse of proto_encode.go. Opaque JSON values come back as
// json.RawMessage, as they do from the JSON decoder; JSON objects typed
// map[string]any come back as maps.

// fromProto returns the event an envelope carries. It rejects an envelope
// with no arm, a missing base_event and a base_event.type that names
// another event than the arm, as the official decoder does.
func fromProto(env *pb.Event) (Event, error) {
	var d protoConv
	ev := d.fromEvent(env)
	if d.err != nil {
		return nil, d.err
	}
	return ev, nil
}

func (d *protoConv) fromEvent(env *pb.Event) Event {
	switch x := env.GetEvent().(type) {
	case *pb.Event_TextMessageStart:
		e := x.TextMessageStart
		return &TextMessageStart{Base: d.fromBase(e.GetBaseEvent(), pb.EventType_TEXT_MESSAGE_START),
			Attribution: attribution(e.GetSubagentRunId()), MessageID: e.GetMessageId(), Role: Role(e.GetRole()), Name: e.GetName()}
	case *pb.Event_TextMessageContent:
		e := x.TextMessageContent
		return &TextMessageContent{Base: d.fromBase(e.GetBaseEvent(), pb.EventType_TEXT_MESSAGE_CONTENT),
			Attribution: attribution(e.GetSubagentRunId()), MessageID: e.GetMessageId(), Delta: e.GetDelta()}
	case *pb.Event_TextMessageEnd:
		e := x.TextMessageEnd
		return &TextMessageEnd{Base: d.fromBase(e.GetBaseEvent(), pb.EventType_TEXT_MESSAGE_END),
			Attribution: attribution(e.GetSubagentRunId()), MessageID: e.GetMessageId()}
	case *pb.Event_TextMessageChunk:
		e := x.TextMessageChunk
		return &TextMessageChunk{Base: d.fromBase(e.GetBaseEvent(), pb.EventType_TEXT_MESSAGE_CHUNK),
			Attribution: attribution(e.GetSubagentRunId()), MessageID: e.GetMessageId(), Role: Role(e.GetRole()),
			Delta: e.GetDelta(), Name: e.GetName()}
	case *pb.Event_ToolCallStart:
		e := x.ToolCallStart
		return &ToolCallStart{Base: d.fromBase(e.GetBaseEvent(), pb.EventType_TOOL_CALL_START),
			Attribution: attribution(e.GetSubagentRunId()), ToolCallID: e.GetToolCallId(), ToolCallName: e.GetToolCallName(),
			ParentMessageID: e.GetParentMessageId()}
	case *pb.Event_ToolCallArgs:
		e := x.ToolCallArgs
		return &ToolCallArgs{Base: d.fromBase(e.GetBaseEvent(), pb.EventType_TOOL_CALL_ARGS),
			Attribution: attribution(e.GetSubagentRunId()), ToolCallID: e.GetToolCallId(), Delta: e.GetDelta()}
	case *pb.Event_ToolCallEnd:
		e := x.ToolCallEnd
		return &ToolCallEnd{Base: d.fromBase(e.GetBaseEvent(), pb.EventType_TOOL_CALL_END),
			Attribution: attribution(e.GetSubagentRunId()), ToolCallID: e.GetToolCallId()}
	case *pb.Event_ToolCallChunk:
		e := x.ToolCallChunk
		return &ToolCallChunk{Base: d.fromBase(e.GetBaseEvent(), pb.EventType_TOOL_CALL_CHUNK),
			Attribution: attribution(e.GetSubagentRunId()), ToolCallID: e.GetToolCallId(), ToolCallName: e.GetToolCallName(),
			ParentMessageID: e.GetParentMessageId(), Delta: e.GetDelta()}
	case *pb.Event_ToolCallResult:
		e := x.ToolCallResult
		return &ToolCallResult{Base: d.fromBase(e.GetBaseEvent(), pb.EventType_TOOL_CALL_RESULT),
			Attribution: attribution(e.GetSubagentRunId()), MessageID: e.GetMessageId(), ToolCallID: e.GetToolCallId(),
			Content: d.fromContent(e.Content, e.GetContentParts()), Role: Role(e.GetRole())}
	case *pb.Event_StateSnapshot:
		e := x.StateSnapshot
		return &StateSnapshot{Base: d.fromBase(e.GetBaseEvent(), pb.EventType_STATE_SNAPSHOT),
			Attribution: attribution(e.GetSubagentRunId()), Snapshot: d.fromValue(e.GetSnapshot())}
	case *pb.Event_StateDelta:
		e := x.StateDelta
		return &StateDelta{Base: d.fromBase(e.GetBaseEvent(), pb.EventType_STATE_DELTA),
			Attribution: attribution(e.GetSubagentRunId()), Delta: d.fromPatch(e.GetDelta())}
	case *pb.Event_MessagesSnapshot:
		e := x.MessagesSnapshot
		return &MessagesSnapshot{Base: d.fromBase(e.GetBaseEvent(), pb.EventType_MESSAGES_SNAPSHOT),
			Messages: d.fromMessages(e.GetMessages())}
	case *pb.Event_ActivitySnapshot:
		e := x.ActivitySnapshot
		return &ActivitySnapshot{Base: d.fromBase(e.GetBaseEvent(), pb.EventType_ACTIVITY_SNAPSHOT),
			Attribution: attribution(e.GetSubagentRunId()), MessageID: e.GetMessageId(), ActivityType: e.GetActivityType(),
			Content: fromStruct(e.GetContent()), Replace: e.Replace}
	case *pb.Event_ActivityDelta:
		e := x.ActivityDelta
		return &ActivityDelta{Base: d.fromBase(e.GetBaseEvent(), pb.EventType_ACTIVITY_DELTA),
			Attribution: attribution(e.GetSubagentRunId()), MessageID: e.GetMessageId(), ActivityType: e.GetActivityType(),
			Patch: d.fromPatch(e.GetPatch())}
	case *pb.Event_Raw:
		e := x.Raw
		return &Raw{Base: d.fromBase(e.GetBaseEvent(), pb.EventType_RAW),
			Attribution: attribution(e.GetSubagentRunId()), Event: d.fromValue(e.GetEvent()), Source: e.GetSource()}
	case *pb.Event_Custom:
		e := x.Custom
		return &Custom{Base: d.fromBase(e.GetBaseEvent(), pb.EventType_CUSTOM),
			Attribution: attribution(e.GetSubagentRunId()), Name: e.GetName(), Value: d.fromValue(e.GetValue())}
	case *pb.Event_RunStarted:
		e := x.RunStarted
		return &RunStarted{Base: d.fromBase(e.GetBaseEvent(), pb.EventType_RUN_STARTED),
			ThreadID: e.GetThreadId(), RunID: e.GetRunId(), ParentRunID: e.GetParentRunId(),
			ProtocolVersion: e.GetProtocolVersion(), Input: d.fromInput(e.GetInput())}
	case *pb.Event_RunFinished:
		e := x.RunFinished
		return &RunFinished{Base: d.fromBase(e.GetBaseEvent(), pb.EventType_RUN_FINISHED),
			ThreadID: e.GetThreadId(), RunID: e.GetRunId(), Result: d.fromValue(e.GetResult()),
			Outcome: d.fromOutcome(e), Usage: fromUsage(e.GetUsage())}
	case *pb.Event_RunError:
		e := x.RunError
		return &RunError{Base: d.fromBase(e.GetBaseEvent(), pb.EventType_RUN_ERROR),
			Message: e.GetMessage(), Code: e.GetCode(), Usage: fromUsage(e.GetUsage())}
	case *pb.Event_StepStarted:
		e := x.StepStarted
		return &StepStarted{Base: d.fromBase(e.GetBaseEvent(), pb.EventType_STEP_STARTED),
			Attribution: attribution(e.GetSubagentRunId()), StepName: e.GetStepName()}
	case *pb.Event_StepFinished:
		e := x.StepFinished
		return &StepFinished{Base: d.fromBase(e.GetBaseEvent(), pb.EventType_STEP_FINISHED),
			Attribution: attribution(e.GetSubagentRunId()), StepName: e.GetStepName()}
	case *pb.Event_ReasoningStart:
		e := x.ReasoningStart
		return &ReasoningStart{Base: d.fromBase(e.GetBaseEvent(), pb.EventType_REASONING_START),
			Attribution: attribution(e.GetSubagentRunId()), MessageID: e.GetMessageId()}
	case *pb.Event_ReasoningMessageStart:
		e := x.ReasoningMessageStart
		return &ReasoningMessageStart{Base: d.fromBase(e.GetBaseEvent(), pb.EventType_REASONING_MESSAGE_START),
			Attribution: attribution(e.GetSubagentRunId()), MessageID: e.GetMessageId()}
	case *pb.Event_ReasoningMessageContent:
		e := x.ReasoningMessageContent
		return &ReasoningMessageContent{Base: d.fromBase(e.GetBaseEvent(), pb.EventType_REASONING_MESSAGE_CONTENT),
			Attribution: attribution(e.GetSubagentRunId()), MessageID: e.GetMessageId(), Delta: e.GetDelta()}
	case *pb.Event_ReasoningMessageEnd:
		e := x.ReasoningMessageEnd
		return &ReasoningMessageEnd{Base: d.fromBase(e.GetBaseEvent(), pb.EventType_REASONING_MESSAGE_END),
			Attribution: attribution(e.GetSubagentRunId()), MessageID: e.GetMessageId()}
	case *pb.Event_ReasoningMessageChunk:
		e := x.ReasoningMessageChunk
		return &ReasoningMessageChunk{Base: d.fromBase(e.GetBaseEvent(), pb.EventType_REASONING_MESSAGE_CHUNK),
			Attribution: attribution(e.GetSubagentRunId()), MessageID: e.GetMessageId(), Delta: e.GetDelta()}
	case *pb.Event_ReasoningEnd:
		e := x.ReasoningEnd
		return &ReasoningEnd{Base: d.fromBase(e.GetBaseEvent(), pb.EventType_REASONING_END),
			Attribution: attribution(e.GetSubagentRunId()), MessageID: e.GetMessageId()}
	case *pb.Event_ReasoningEncryptedValue:
		e := x.ReasoningEncryptedValue
		return &ReasoningEncryptedValue{Base: d.fromBase(e.GetBaseEvent(), pb.EventType_REASONING_ENCRYPTED_VALUE),
			Attribution: attribution(e.GetSubagentRunId()), Subtype: EncryptedSubtype(e.GetSubtype()),
			EntityID: e.GetEntityId(), EncryptedValue: e.GetEncryptedValue(),
			EncryptedValueType: e.GetEncryptedValueType()}
	case *pb.Event_SubagentStarted:
		e := x.SubagentStarted
		return &SubagentStarted{Base: d.fromBase(e.GetBaseEvent(), pb.EventType_SUBAGENT_STARTED),
			SubagentRunID: e.GetSubagentRunId(), Name: e.GetName(), Description: e.GetDescription(),
			ParentSubagentRunID: e.GetParentSubagentRunId(), ParentToolCallID: e.GetParentToolCallId(),
			ParentMessageID: e.GetParentMessageId()}
	case *pb.Event_SubagentFinished:
		e := x.SubagentFinished
		return &SubagentFinished{Base: d.fromBase(e.GetBaseEvent(), pb.EventType_SUBAGENT_FINISHED),
			SubagentRunID: e.GetSubagentRunId(), Result: d.fromValue(e.GetResult()), Outcome: d.fromSubagentOutcome(e)}
	case *pb.Event_SubagentError:
		e := x.SubagentError
		return &SubagentError{Base: d.fromBase(e.GetBaseEvent(), pb.EventType_SUBAGENT_ERROR),
			SubagentRunID: e.GetSubagentRunId(), Message: e.GetMessage(), Code: e.GetCode()}
	}
	d.fail("the envelope carries no known event")
	return nil
}

func (d *protoConv) fromBase(b *pb.BaseEvent, arm pb.EventType) Base {
	if b == nil {
		d.fail("%s carries no base_event", arm)
		return Base{}
	}
	if b.GetType() != arm {
		d.fail("the envelope carries %s but the base event declares %s", arm, b.GetType())
	}
	return Base{Timestamp: b.GetTimestamp(), RawEvent: d.fromValue(b.GetRawEvent()), Metadata: fromStruct(b.GetMetadata())}
}

func attribution(id string) Attribution { return Attribution{SubagentRunID: id} }

// fromValue returns an opaque value as compact JSON, or nil when absent.
func (d *protoConv) fromValue(v *structpb.Value) any {
	if v == nil {
		return nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v.AsInterface()); err != nil {
		d.fail("google.protobuf.Value is not JSON: %v", err)
		return nil
	}
	return json.RawMessage(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

func fromStruct(s *structpb.Struct) map[string]any {
	if s == nil {
		return nil
	}
	return s.AsMap()
}

// fromMapValue reads a Value the schema types as any JSON but our model as
// an object.
func (d *protoConv) fromMapValue(v *structpb.Value, field string) map[string]any {
	if v == nil {
		return nil
	}
	s, ok := v.GetKind().(*structpb.Value_StructValue)
	if !ok {
		d.fail("%s is not a JSON object", field)
		return nil
	}
	return s.StructValue.AsMap()
}

func (d *protoConv) fromPatch(ops []*pb.JsonPatchOperation) []PatchOp {
	out := make([]PatchOp, len(ops))
	for i, op := range ops {
		name := op.GetOp().String()
		if _, ok := patchOp(lower(name)); !ok {
			d.fail("unknown JSON Patch op %d", op.GetOp())
			return nil
		}
		out[i] = PatchOp{Op: lower(name), Path: op.GetPath(), From: op.GetFrom(), Value: d.fromValue(op.GetValue())}
	}
	return out
}

// lower lowercases an ASCII enum name.
func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func fromUsage(us []*pb.Usage) []TokenUsage {
	if len(us) == 0 {
		return nil
	}
	out := make([]TokenUsage, len(us))
	for i, u := range us {
		out[i] = TokenUsage{
			Provider: u.GetProvider(), Model: u.GetModel(),
			InputTokens: u.InputTokens, OutputTokens: u.OutputTokens, TotalTokens: u.TotalTokens,
			ReasoningTokens: u.ReasoningTokens, CachedInputTokens: u.CachedInputTokens,
			CacheWriteInputTokens: u.CacheWriteInputTokens,
		}
	}
	return out
}

// fromOutcome rebuilds the outcome object. Payload the outcome does not own
// (pending ids on an interrupt, say) is refused rather than dropped.
func (d *protoConv) fromOutcome(e *pb.RunFinishedEvent) *Outcome {
	pending, interrupts := e.GetPendingToolCallIds(), e.GetInterrupts()
	var o *Outcome
	switch t := OutcomeType(e.GetOutcome()); t {
	case "":
		if len(pending) == 0 && len(interrupts) == 0 {
			return nil
		}
		d.fail("RUN_FINISHED carries an outcome payload without an outcome")
		return nil
	case OutcomeSuccess:
		o = &Outcome{Type: t, PendingToolCallIDs: pending}
		interrupts = nil
	case OutcomeInterrupt:
		o = &Outcome{Type: t, Interrupts: d.fromInterrupts(interrupts)}
		interrupts = nil
	case OutcomeCancelled:
		o = &Outcome{Type: t}
	default:
		d.fail("unknown run outcome %q", t)
		return nil
	}
	if (o.Type != OutcomeSuccess && len(pending) > 0) || len(interrupts) > 0 {
		d.fail("a %s outcome cannot carry that payload", o.Type)
		return nil
	}
	return o
}

func (d *protoConv) fromSubagentOutcome(e *pb.SubagentFinishedEvent) *SubagentOutcome {
	ids := e.GetInterruptIds()
	switch e.GetOutcome() {
	case "":
		if len(ids) > 0 {
			d.fail("SUBAGENT_FINISHED carries interrupt ids without an outcome")
		}
		return nil
	case subagentSuccess:
		if len(ids) > 0 {
			d.fail("a success outcome cannot carry interrupt ids")
		}
		return &SubagentOutcome{Type: subagentSuccess}
	case subagentSuspended:
		return &SubagentOutcome{Type: subagentSuspended, InterruptIDs: ids}
	}
	d.fail("unknown subagent outcome %q", e.GetOutcome())
	return nil
}

func (d *protoConv) fromInterrupts(in []*pb.Interrupt) []Interrupt {
	out := make([]Interrupt, len(in))
	for i, it := range in {
		out[i] = Interrupt{
			ID: it.GetId(), Reason: it.GetReason(), Message: it.GetMessage(), ToolCallID: it.GetToolCallId(),
			ResponseSchema: d.fromMapValue(it.GetResponseSchema(), "interrupt responseSchema"),
			ExpiresAt:      it.GetExpiresAt(),
			Metadata:       d.fromMapValue(it.GetMetadata(), "interrupt metadata"),
			SubagentRunID:  it.GetSubagentRunId(),
		}
	}
	return out
}

func (d *protoConv) fromInput(in *pb.RunAgentInput) *RunAgentInput {
	if in == nil {
		return nil
	}
	out := &RunAgentInput{
		ThreadID: in.GetThreadId(), RunID: in.GetRunId(), ProtocolVersion: in.GetProtocolVersion(),
		ParentRunID: in.GetParentRunId(), State: d.fromValue(in.GetState()),
		Messages: d.fromMessages(in.GetMessages()), ForwardedProps: d.fromValue(in.GetForwardedProps()),
		Tools: make([]Tool, len(in.GetTools())), Context: make([]ContextItem, len(in.GetContext())),
	}
	for i, t := range in.GetTools() {
		out.Tools[i] = Tool{Name: t.GetName(), Description: t.GetDescription(),
			Parameters: d.fromValue(t.GetParameters()), Metadata: fromStruct(t.GetMetadata())}
	}
	for i, c := range in.GetContext() {
		out.Context[i] = ContextItem{Description: c.GetDescription(), Value: c.GetValue()}
	}
	for _, r := range in.GetResume() {
		out.Resume = append(out.Resume, ResumeEntry{InterruptID: r.GetInterruptId(), Status: ResumeStatus(r.GetStatus()),
			Payload: d.fromValue(r.GetPayload()), Metadata: fromStruct(r.GetMetadata())})
	}
	return out
}

func (d *protoConv) fromMessages(ms []*pb.Message) []Message {
	out := make([]Message, 0, len(ms))
	for _, m := range ms {
		if msg := d.fromMessage(m); msg != nil {
			out = append(out, msg)
		}
	}
	return out
}

// fromMessage picks the union member by role and reads the content carrier
// that role uses; a carrier the role does not use is refused, as the
// official decoder does, because either reading would lose data.
func (d *protoConv) fromMessage(m *pb.Message) Message {
	role := Role(m.GetRole())
	if len(m.GetContentParts()) > 0 && role != RoleUser && role != RoleTool {
		d.fail("a %s message cannot carry content parts", role)
		return nil
	}
	if m.ActivityContent != nil && role != RoleActivity {
		d.fail("a %s message cannot carry activity content", role)
		return nil
	}
	if len(m.GetToolCalls()) > 0 && role != RoleAssistant {
		d.fail("a %s message cannot carry tool calls", role)
		return nil
	}
	switch role {
	case RoleDeveloper:
		return &DeveloperMessage{ID: m.GetId(), Content: m.GetContent(), Name: m.GetName(),
			EncryptedValue: m.GetEncryptedValue(), EncryptedValueType: m.GetEncryptedValueType(), Metadata: fromStruct(m.GetMetadata()), SubagentRunID: m.GetSubagentRunId()}
	case RoleSystem:
		return &SystemMessage{ID: m.GetId(), Content: m.GetContent(), Name: m.GetName(),
			EncryptedValue: m.GetEncryptedValue(), EncryptedValueType: m.GetEncryptedValueType(), Metadata: fromStruct(m.GetMetadata()), SubagentRunID: m.GetSubagentRunId()}
	case RoleAssistant:
		out := &AssistantMessage{ID: m.GetId(), Content: m.GetContent(), Name: m.GetName(),
			EncryptedValue: m.GetEncryptedValue(), EncryptedValueType: m.GetEncryptedValueType(), Metadata: fromStruct(m.GetMetadata()), SubagentRunID: m.GetSubagentRunId()}
		for _, tc := range m.GetToolCalls() {
			out.ToolCalls = append(out.ToolCalls, ToolCall{ID: tc.GetId(),
				Function:       FunctionCall{Name: tc.GetFunction().GetName(), Arguments: tc.GetFunction().GetArguments()},
				EncryptedValue: tc.GetEncryptedValue(), EncryptedValueType: tc.GetEncryptedValueType(), Metadata: fromStruct(tc.GetMetadata())})
		}
		return out
	case RoleUser:
		return &UserMessage{ID: m.GetId(), Content: d.fromContent(m.Content, m.GetContentParts()), Name: m.GetName(),
			EncryptedValue: m.GetEncryptedValue(), EncryptedValueType: m.GetEncryptedValueType(), Metadata: fromStruct(m.GetMetadata()), SubagentRunID: m.GetSubagentRunId()}
	case RoleTool:
		return &ToolMessage{ID: m.GetId(), Content: d.fromContent(m.Content, m.GetContentParts()),
			ToolCallID: m.GetToolCallId(), Error: m.GetError(), EncryptedValue: m.GetEncryptedValue(), EncryptedValueType: m.GetEncryptedValueType(),
			Metadata: fromStruct(m.GetMetadata()), SubagentRunID: m.GetSubagentRunId()}
	case RoleActivity:
		if m.Content != nil {
			d.fail("an activity message cannot carry string content")
			return nil
		}
		return &ActivityMessage{ID: m.GetId(), ActivityType: m.GetActivityType(), Content: fromStruct(m.GetActivityContent()),
			Metadata: fromStruct(m.GetMetadata()), SubagentRunID: m.GetSubagentRunId()}
	case RoleReasoning:
		return &ReasoningMessage{ID: m.GetId(), Content: m.GetContent(), EncryptedValue: m.GetEncryptedValue(), EncryptedValueType: m.GetEncryptedValueType(),
			Metadata: fromStruct(m.GetMetadata()), SubagentRunID: m.GetSubagentRunId()}
	}
	d.fail("unknown message role %q", role)
	return nil
}

// fromContent reads string-or-parts content: the string when it is set,
// the parts (possibly none, which is the empty array) otherwise.
func (d *protoConv) fromContent(text *string, parts []*pb.InputContent) Content {
	if text != nil {
		if len(parts) > 0 {
			d.fail("content carries both a string and content parts")
		}
		return TextContent(*text)
	}
	out := make([]ContentPart, 0, len(parts))
	for _, p := range parts {
		out = append(out, d.fromPart(p))
	}
	return PartsContent(out...)
}

func (d *protoConv) fromPart(p *pb.InputContent) ContentPart {
	type media interface {
		GetSource() *pb.InputContentSource
		GetMetadata() *structpb.Value
		GetId() string
	}
	var (
		t PartType
		m media
	)
	switch x := p.GetPart().(type) {
	case *pb.InputContent_Text:
		return ContentPart{Type: PartText, ID: x.Text.GetId(), Text: x.Text.GetText(), Metadata: d.fromValue(x.Text.GetMetadata())}
	case *pb.InputContent_Image:
		t, m = PartImage, x.Image
	case *pb.InputContent_Audio:
		t, m = PartAudio, x.Audio
	case *pb.InputContent_Video:
		t, m = PartVideo, x.Video
	case *pb.InputContent_Document:
		t, m = PartDocument, x.Document
	default:
		d.fail("a content part carries no known part")
		return ContentPart{}
	}
	return ContentPart{Type: t, ID: m.GetId(), Source: d.fromSource(m.GetSource()), Metadata: d.fromValue(m.GetMetadata())}
}

func (d *protoConv) fromSource(s *pb.InputContentSource) *PartSource {
	switch x := s.GetSource().(type) {
	case nil:
		return nil
	case *pb.InputContentSource_Data:
		return &PartSource{Type: SourceData, Value: x.Data.GetValue(), MimeType: x.Data.GetMimeType()}
	case *pb.InputContentSource_Url:
		return &PartSource{Type: SourceURL, Value: x.Url.GetValue(), MimeType: x.Url.GetMimeType()}
	case *pb.InputContentSource_File:
		return &PartSource{Type: SourceFile, Value: x.File.GetValue(), Provider: x.File.GetProvider(), MimeType: x.File.GetMimeType()}
	}
	d.fail("unknown content source %T", s.GetSource())
	return nil
}
