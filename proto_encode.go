package agui

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/agui-go/agui/internal/jsonx"
	"github.com/agui-go/agui/internal/pb"
)

// This file converts our events to the generated protobuf types. The rules
// mirror the JSON encoding: a Go zero value that means "absent" leaves the
// proto3 optional field unset, and the three required-but-nullable payloads
// (STATE_SNAPSHOT.snapshot, RAW.event, CUSTOM.value) carry a NullValue when
// nil, exactly as their JSON writes null.

// toProto returns the envelope for ev with its oneof arm set and
// base_event.type naming that arm.
func toProto(ev Event) (*pb.Event, error) {
	var c protoConv
	out := c.event(ev)
	if c.err != nil {
		return nil, c.err
	}
	return out, nil
}

// protoConv collects the first conversion error so that the per-type code
// reads as a plain field mapping.
type protoConv struct{ err error }

func (c *protoConv) fail(format string, args ...any) {
	if c.err == nil {
		c.err = &Error{Code: CodeSerialization, Message: "protobuf: " + fmt.Sprintf(format, args...)}
	}
}

func (c *protoConv) event(ev Event) *pb.Event {
	switch e := ev.(type) {
	case *TextMessageStart:
		return &pb.Event{Event: &pb.Event_TextMessageStart{TextMessageStart: &pb.TextMessageStartEvent{
			BaseEvent: c.base(&e.Base, pb.EventType_TEXT_MESSAGE_START), MessageId: e.MessageID,
			Role: opt(string(e.Role)), Name: opt(e.Name), SubagentRunId: opt(e.SubagentRunID),
		}}}
	case *TextMessageContent:
		return &pb.Event{Event: &pb.Event_TextMessageContent{TextMessageContent: &pb.TextMessageContentEvent{
			BaseEvent: c.base(&e.Base, pb.EventType_TEXT_MESSAGE_CONTENT), MessageId: e.MessageID,
			Delta: e.Delta, SubagentRunId: opt(e.SubagentRunID),
		}}}
	case *TextMessageEnd:
		return &pb.Event{Event: &pb.Event_TextMessageEnd{TextMessageEnd: &pb.TextMessageEndEvent{
			BaseEvent: c.base(&e.Base, pb.EventType_TEXT_MESSAGE_END), MessageId: e.MessageID,
			SubagentRunId: opt(e.SubagentRunID),
		}}}
	case *TextMessageChunk:
		return &pb.Event{Event: &pb.Event_TextMessageChunk{TextMessageChunk: &pb.TextMessageChunkEvent{
			BaseEvent: c.base(&e.Base, pb.EventType_TEXT_MESSAGE_CHUNK), MessageId: opt(e.MessageID),
			Role: opt(string(e.Role)), Delta: opt(e.Delta), Name: opt(e.Name), SubagentRunId: opt(e.SubagentRunID),
		}}}
	case *ToolCallStart:
		return &pb.Event{Event: &pb.Event_ToolCallStart{ToolCallStart: &pb.ToolCallStartEvent{
			BaseEvent: c.base(&e.Base, pb.EventType_TOOL_CALL_START), ToolCallId: e.ToolCallID,
			ToolCallName: e.ToolCallName, ParentMessageId: opt(e.ParentMessageID), SubagentRunId: opt(e.SubagentRunID),
		}}}
	case *ToolCallArgs:
		return &pb.Event{Event: &pb.Event_ToolCallArgs{ToolCallArgs: &pb.ToolCallArgsEvent{
			BaseEvent: c.base(&e.Base, pb.EventType_TOOL_CALL_ARGS), ToolCallId: e.ToolCallID,
			Delta: e.Delta, SubagentRunId: opt(e.SubagentRunID),
		}}}
	case *ToolCallEnd:
		return &pb.Event{Event: &pb.Event_ToolCallEnd{ToolCallEnd: &pb.ToolCallEndEvent{
			BaseEvent: c.base(&e.Base, pb.EventType_TOOL_CALL_END), ToolCallId: e.ToolCallID,
			SubagentRunId: opt(e.SubagentRunID),
		}}}
	case *ToolCallChunk:
		return &pb.Event{Event: &pb.Event_ToolCallChunk{ToolCallChunk: &pb.ToolCallChunkEvent{
			BaseEvent: c.base(&e.Base, pb.EventType_TOOL_CALL_CHUNK), ToolCallId: opt(e.ToolCallID),
			ToolCallName: opt(e.ToolCallName), ParentMessageId: opt(e.ParentMessageID), Delta: opt(e.Delta),
			SubagentRunId: opt(e.SubagentRunID),
		}}}
	case *ToolCallResult:
		out := &pb.ToolCallResultEvent{
			BaseEvent: c.base(&e.Base, pb.EventType_TOOL_CALL_RESULT), SubagentRunId: opt(e.SubagentRunID),
			MessageId: e.MessageID, ToolCallId: e.ToolCallID, Role: opt(string(e.Role)),
		}
		out.Content, out.ContentParts = c.content(e.Content)
		return &pb.Event{Event: &pb.Event_ToolCallResult{ToolCallResult: out}}
	case *StateSnapshot:
		return &pb.Event{Event: &pb.Event_StateSnapshot{StateSnapshot: &pb.StateSnapshotEvent{
			BaseEvent: c.base(&e.Base, pb.EventType_STATE_SNAPSHOT), Snapshot: c.value(e.Snapshot),
			SubagentRunId: opt(e.SubagentRunID),
		}}}
	case *StateDelta:
		return &pb.Event{Event: &pb.Event_StateDelta{StateDelta: &pb.StateDeltaEvent{
			BaseEvent: c.base(&e.Base, pb.EventType_STATE_DELTA), Delta: c.patch(e.Delta),
			SubagentRunId: opt(e.SubagentRunID),
		}}}
	case *MessagesSnapshot:
		return &pb.Event{Event: &pb.Event_MessagesSnapshot{MessagesSnapshot: &pb.MessagesSnapshotEvent{
			BaseEvent: c.base(&e.Base, pb.EventType_MESSAGES_SNAPSHOT), Messages: c.messages(e.Messages),
		}}}
	case *ActivitySnapshot:
		return &pb.Event{Event: &pb.Event_ActivitySnapshot{ActivitySnapshot: &pb.ActivitySnapshotEvent{
			BaseEvent: c.base(&e.Base, pb.EventType_ACTIVITY_SNAPSHOT), SubagentRunId: opt(e.SubagentRunID),
			MessageId: e.MessageID, ActivityType: e.ActivityType, Content: c.object(e.Content), Replace: e.Replace,
		}}}
	case *ActivityDelta:
		return &pb.Event{Event: &pb.Event_ActivityDelta{ActivityDelta: &pb.ActivityDeltaEvent{
			BaseEvent: c.base(&e.Base, pb.EventType_ACTIVITY_DELTA), SubagentRunId: opt(e.SubagentRunID),
			MessageId: e.MessageID, ActivityType: e.ActivityType, Patch: c.patch(e.Patch),
		}}}
	case *Raw:
		return &pb.Event{Event: &pb.Event_Raw{Raw: &pb.RawEvent{
			BaseEvent: c.base(&e.Base, pb.EventType_RAW), Event: c.value(e.Event), Source: opt(e.Source),
			SubagentRunId: opt(e.SubagentRunID),
		}}}
	case *Custom:
		return &pb.Event{Event: &pb.Event_Custom{Custom: &pb.CustomEvent{
			BaseEvent: c.base(&e.Base, pb.EventType_CUSTOM), Name: e.Name, Value: c.value(e.Value),
			SubagentRunId: opt(e.SubagentRunID),
		}}}
	case *RunStarted:
		return &pb.Event{Event: &pb.Event_RunStarted{RunStarted: &pb.RunStartedEvent{
			BaseEvent: c.base(&e.Base, pb.EventType_RUN_STARTED), ThreadId: e.ThreadID, RunId: e.RunID,
			ParentRunId: opt(e.ParentRunID), Input: c.input(e.Input), ProtocolVersion: opt(e.ProtocolVersion),
		}}}
	case *RunFinished:
		out := &pb.RunFinishedEvent{
			BaseEvent: c.base(&e.Base, pb.EventType_RUN_FINISHED), ThreadId: e.ThreadID, RunId: e.RunID,
			Result: c.optValue(e.Result), Usage: usage(e.Usage),
		}
		c.outcome(out, e.Outcome)
		return &pb.Event{Event: &pb.Event_RunFinished{RunFinished: out}}
	case *RunError:
		return &pb.Event{Event: &pb.Event_RunError{RunError: &pb.RunErrorEvent{
			BaseEvent: c.base(&e.Base, pb.EventType_RUN_ERROR), Code: opt(e.Code), Message: e.Message,
			Usage: usage(e.Usage),
		}}}
	case *StepStarted:
		return &pb.Event{Event: &pb.Event_StepStarted{StepStarted: &pb.StepStartedEvent{
			BaseEvent: c.base(&e.Base, pb.EventType_STEP_STARTED), StepName: e.StepName,
			SubagentRunId: opt(e.SubagentRunID),
		}}}
	case *StepFinished:
		return &pb.Event{Event: &pb.Event_StepFinished{StepFinished: &pb.StepFinishedEvent{
			BaseEvent: c.base(&e.Base, pb.EventType_STEP_FINISHED), StepName: e.StepName,
			SubagentRunId: opt(e.SubagentRunID),
		}}}
	case *ReasoningStart:
		return &pb.Event{Event: &pb.Event_ReasoningStart{ReasoningStart: &pb.ReasoningStartEvent{
			BaseEvent: c.base(&e.Base, pb.EventType_REASONING_START), SubagentRunId: opt(e.SubagentRunID),
			MessageId: e.MessageID,
		}}}
	case *ReasoningMessageStart:
		return &pb.Event{Event: &pb.Event_ReasoningMessageStart{ReasoningMessageStart: &pb.ReasoningMessageStartEvent{
			BaseEvent: c.base(&e.Base, pb.EventType_REASONING_MESSAGE_START), SubagentRunId: opt(e.SubagentRunID),
			MessageId: e.MessageID, Role: string(RoleReasoning),
		}}}
	case *ReasoningMessageContent:
		return &pb.Event{Event: &pb.Event_ReasoningMessageContent{ReasoningMessageContent: &pb.ReasoningMessageContentEvent{
			BaseEvent: c.base(&e.Base, pb.EventType_REASONING_MESSAGE_CONTENT), SubagentRunId: opt(e.SubagentRunID),
			MessageId: e.MessageID, Delta: e.Delta,
		}}}
	case *ReasoningMessageEnd:
		return &pb.Event{Event: &pb.Event_ReasoningMessageEnd{ReasoningMessageEnd: &pb.ReasoningMessageEndEvent{
			BaseEvent: c.base(&e.Base, pb.EventType_REASONING_MESSAGE_END), SubagentRunId: opt(e.SubagentRunID),
			MessageId: e.MessageID,
		}}}
	case *ReasoningMessageChunk:
		return &pb.Event{Event: &pb.Event_ReasoningMessageChunk{ReasoningMessageChunk: &pb.ReasoningMessageChunkEvent{
			BaseEvent: c.base(&e.Base, pb.EventType_REASONING_MESSAGE_CHUNK), SubagentRunId: opt(e.SubagentRunID),
			MessageId: opt(e.MessageID), Delta: opt(e.Delta),
		}}}
	case *ReasoningEnd:
		return &pb.Event{Event: &pb.Event_ReasoningEnd{ReasoningEnd: &pb.ReasoningEndEvent{
			BaseEvent: c.base(&e.Base, pb.EventType_REASONING_END), SubagentRunId: opt(e.SubagentRunID),
			MessageId: e.MessageID,
		}}}
	case *ReasoningEncryptedValue:
		return &pb.Event{Event: &pb.Event_ReasoningEncryptedValue{ReasoningEncryptedValue: &pb.ReasoningEncryptedValueEvent{
			BaseEvent: c.base(&e.Base, pb.EventType_REASONING_ENCRYPTED_VALUE), SubagentRunId: opt(e.SubagentRunID),
			Subtype: string(e.Subtype), EntityId: e.EntityID, EncryptedValue: e.EncryptedValue,
			EncryptedValueType: opt(e.EncryptedValueType),
		}}}
	case *SubagentStarted:
		return &pb.Event{Event: &pb.Event_SubagentStarted{SubagentStarted: &pb.SubagentStartedEvent{
			BaseEvent: c.base(&e.Base, pb.EventType_SUBAGENT_STARTED), SubagentRunId: e.SubagentRunID,
			Name: e.Name, Description: opt(e.Description), ParentSubagentRunId: opt(e.ParentSubagentRunID),
			ParentToolCallId: opt(e.ParentToolCallID), ParentMessageId: opt(e.ParentMessageID),
		}}}
	case *SubagentFinished:
		out := &pb.SubagentFinishedEvent{
			BaseEvent: c.base(&e.Base, pb.EventType_SUBAGENT_FINISHED), SubagentRunId: e.SubagentRunID,
			Result: c.optValue(e.Result),
		}
		c.subagentOutcome(out, e.Outcome)
		return &pb.Event{Event: &pb.Event_SubagentFinished{SubagentFinished: out}}
	case *SubagentError:
		return &pb.Event{Event: &pb.Event_SubagentError{SubagentError: &pb.SubagentErrorEvent{
			BaseEvent: c.base(&e.Base, pb.EventType_SUBAGENT_ERROR), SubagentRunId: e.SubagentRunID,
			Message: e.Message, Code: opt(e.Code),
		}}}
	}
	// Unreachable for a well-formed program: Event is sealed and every
	// implementation is listed above. A nil interface lands here too.
	c.fail("no protobuf form for event %T", ev)
	return nil
}

func (c *protoConv) base(b *Base, t pb.EventType) *pb.BaseEvent {
	out := &pb.BaseEvent{Type: t, RawEvent: c.optValue(b.RawEvent), Metadata: c.optObject(b.Metadata)}
	if b.Timestamp != 0 {
		out.Timestamp = &b.Timestamp
	}
	return out
}

// opt maps our "" (absent) to an unset proto3 optional string.
func opt[S ~string](s S) *string {
	if s == "" {
		return nil
	}
	v := string(s)
	return &v
}

// value converts an opaque JSON value; nil becomes a JSON null, which is
// right for the payloads whose key is required. The value goes through our
// JSON encoder (jsonx.AppendValue, which falls back to encoding/json), so the
// protobuf carries exactly what the SSE encoding would: struct tags,
// json.Marshaler and json.RawMessage included.
func (c *protoConv) value(v any) *structpb.Value {
	b, err := jsonx.AppendValue(nil, v)
	if err != nil {
		c.fail("cannot convert %T to JSON: %v", v, err)
		return nil
	}
	out := new(structpb.Value)
	if err := protojson.Unmarshal(b, out); err != nil {
		c.fail("cannot convert JSON to google.protobuf.Value: %v", err)
		return nil
	}
	return out
}

// optValue converts an optional opaque value. nil, and anything that
// encodes as JSON null, leaves the field unset: the protocol has no null
// for optional fields, and the JSON encoding omits them too.
func (c *protoConv) optValue(v any) *structpb.Value {
	if v == nil {
		return nil
	}
	out := c.value(v)
	if _, null := out.GetKind().(*structpb.Value_NullValue); null {
		return nil
	}
	return out
}

// object converts a required JSON object: nil is written as {}.
func (c *protoConv) object(m map[string]any) *structpb.Struct {
	if m == nil {
		return &structpb.Struct{}
	}
	return c.optObject(m)
}

// optObject converts an optional JSON object: nil leaves the field unset.
func (c *protoConv) optObject(m map[string]any) *structpb.Struct {
	if m == nil {
		return nil
	}
	v := c.value(m)
	if v == nil {
		return nil
	}
	return v.GetStructValue()
}

// optMapValue is optObject for the fields the schema declares as Value.
func (c *protoConv) optMapValue(m map[string]any) *structpb.Value {
	if m == nil {
		return nil
	}
	return c.value(m)
}

// patchOp maps a JSON Patch op name to the wire enum.
func patchOp(op string) (pb.JsonPatchOperationType, bool) {
	switch op {
	case "add":
		return pb.JsonPatchOperationType_ADD, true
	case "remove":
		return pb.JsonPatchOperationType_REMOVE, true
	case "replace":
		return pb.JsonPatchOperationType_REPLACE, true
	case "move":
		return pb.JsonPatchOperationType_MOVE, true
	case "copy":
		return pb.JsonPatchOperationType_COPY, true
	case "test":
		return pb.JsonPatchOperationType_TEST, true
	}
	return 0, false
}

func (c *protoConv) patch(ops []PatchOp) []*pb.JsonPatchOperation {
	out := make([]*pb.JsonPatchOperation, len(ops))
	for i, op := range ops {
		code, ok := patchOp(op.Op)
		if !ok {
			// The enum has no value for it; writing ADD instead would change
			// the patch's meaning.
			c.fail("unknown JSON Patch op %q", op.Op)
			return nil
		}
		// As in the JSON encoding, an operation carries exactly the members
		// it defines: from for move and copy, value (null when nil) for add,
		// replace and test.
		p := &pb.JsonPatchOperation{Op: code, Path: op.Path}
		switch code {
		case pb.JsonPatchOperationType_MOVE, pb.JsonPatchOperationType_COPY:
			p.From = &op.From
		case pb.JsonPatchOperationType_ADD, pb.JsonPatchOperationType_REPLACE, pb.JsonPatchOperationType_TEST:
			p.Value = c.value(op.Value)
		}
		out[i] = p
	}
	return out
}

func usage(us []TokenUsage) []*pb.Usage {
	if len(us) == 0 {
		return nil
	}
	out := make([]*pb.Usage, len(us))
	for i, u := range us {
		out[i] = &pb.Usage{
			Provider: opt(u.Provider), Model: opt(u.Model),
			InputTokens: u.InputTokens, OutputTokens: u.OutputTokens, TotalTokens: u.TotalTokens,
			ReasoningTokens: u.ReasoningTokens, CachedInputTokens: u.CachedInputTokens,
			CacheWriteInputTokens: u.CacheWriteInputTokens,
		}
	}
	return out
}

// outcome flattens the outcome object onto the event: the type as a string
// and its payload in the event's repeated fields.
func (c *protoConv) outcome(out *pb.RunFinishedEvent, o *Outcome) {
	if o == nil {
		return
	}
	switch o.Type {
	case OutcomeSuccess:
		out.PendingToolCallIds = o.PendingToolCallIDs
	case OutcomeInterrupt:
		out.Interrupts = c.interrupts(o.Interrupts)
	case OutcomeCancelled:
	default:
		// A stock client would read an unknown outcome as success.
		c.fail("unknown run outcome %q", o.Type)
		return
	}
	out.Outcome = string(o.Type)
}

func (c *protoConv) subagentOutcome(out *pb.SubagentFinishedEvent, o *SubagentOutcome) {
	if o == nil {
		return
	}
	switch o.Type {
	case subagentSuccess:
	case subagentSuspended:
		out.InterruptIds = o.InterruptIDs
	default:
		c.fail("unknown subagent outcome %q", o.Type)
		return
	}
	out.Outcome = o.Type
}

// The SubagentOutcome.Type values.
const (
	subagentSuccess   = "success"
	subagentSuspended = "suspended"
)

func (c *protoConv) interrupts(in []Interrupt) []*pb.Interrupt {
	out := make([]*pb.Interrupt, len(in))
	for i, it := range in {
		out[i] = &pb.Interrupt{
			Id: it.ID, Reason: it.Reason, Message: opt(it.Message), ToolCallId: opt(it.ToolCallID),
			ResponseSchema: c.optMapValue(it.ResponseSchema), ExpiresAt: opt(it.ExpiresAt),
			Metadata: c.optMapValue(it.Metadata), SubagentRunId: opt(it.SubagentRunID),
		}
	}
	return out
}

func (c *protoConv) input(in *RunAgentInput) *pb.RunAgentInput {
	if in == nil {
		return nil
	}
	out := &pb.RunAgentInput{
		ThreadId: in.ThreadID, RunId: in.RunID, ParentRunId: opt(in.ParentRunID),
		State: c.optValue(in.State), Messages: c.messages(in.Messages),
		ForwardedProps: c.optValue(in.ForwardedProps), ProtocolVersion: opt(in.ProtocolVersion),
	}
	for _, t := range in.Tools {
		out.Tools = append(out.Tools, &pb.Tool{
			Name: t.Name, Description: t.Description, Parameters: c.optValue(t.Parameters),
			Metadata: c.optObject(t.Metadata),
		})
	}
	for _, x := range in.Context {
		out.Context = append(out.Context, &pb.Context{Description: x.Description, Value: x.Value})
	}
	for _, r := range in.Resume {
		out.Resume = append(out.Resume, &pb.ResumeEntry{
			InterruptId: r.InterruptID, Status: string(r.Status), Payload: c.optValue(r.Payload),
			Metadata: c.optObject(r.Metadata),
		})
	}
	return out
}

func (c *protoConv) messages(ms []Message) []*pb.Message {
	out := make([]*pb.Message, 0, len(ms))
	for _, m := range ms {
		out = append(out, c.message(m))
	}
	return out
}

// message fills the one flat wire Message from a member of our union. A
// string content the JSON always writes (every role but assistant) is
// always set, even when empty, so that it decodes as "" rather than absent.
func (c *protoConv) message(m Message) *pb.Message {
	switch m := m.(type) {
	case *DeveloperMessage:
		return &pb.Message{
			Id: m.ID, Role: string(RoleDeveloper), Content: &m.Content, Name: opt(m.Name),
			EncryptedValue: opt(m.EncryptedValue), EncryptedValueType: opt(m.EncryptedValueType), Metadata: c.optObject(m.Metadata), SubagentRunId: opt(m.SubagentRunID),
		}
	case *SystemMessage:
		return &pb.Message{
			Id: m.ID, Role: string(RoleSystem), Content: &m.Content, Name: opt(m.Name),
			EncryptedValue: opt(m.EncryptedValue), EncryptedValueType: opt(m.EncryptedValueType), Metadata: c.optObject(m.Metadata), SubagentRunId: opt(m.SubagentRunID),
		}
	case *AssistantMessage:
		out := &pb.Message{
			Id: m.ID, Role: string(RoleAssistant), Content: opt(m.Content), Name: opt(m.Name),
			EncryptedValue: opt(m.EncryptedValue), EncryptedValueType: opt(m.EncryptedValueType), Metadata: c.optObject(m.Metadata), SubagentRunId: opt(m.SubagentRunID),
		}
		for _, tc := range m.ToolCalls {
			out.ToolCalls = append(out.ToolCalls, &pb.ToolCall{
				Id: tc.ID, Type: "function",
				Function:           &pb.ToolCall_Function{Name: tc.Function.Name, Arguments: tc.Function.Arguments},
				Metadata:           c.optObject(tc.Metadata),
				EncryptedValue:     opt(tc.EncryptedValue),
				EncryptedValueType: opt(tc.EncryptedValueType),
			})
		}
		return out
	case *UserMessage:
		out := &pb.Message{
			Id: m.ID, Role: string(RoleUser), Name: opt(m.Name),
			EncryptedValue: opt(m.EncryptedValue), EncryptedValueType: opt(m.EncryptedValueType), Metadata: c.optObject(m.Metadata), SubagentRunId: opt(m.SubagentRunID),
		}
		out.Content, out.ContentParts = c.content(m.Content)
		return out
	case *ToolMessage:
		out := &pb.Message{
			Id: m.ID, Role: string(RoleTool), ToolCallId: &m.ToolCallID, Error: opt(m.Error),
			EncryptedValue: opt(m.EncryptedValue), EncryptedValueType: opt(m.EncryptedValueType), Metadata: c.optObject(m.Metadata), SubagentRunId: opt(m.SubagentRunID),
		}
		out.Content, out.ContentParts = c.content(m.Content)
		return out
	case *ActivityMessage:
		return &pb.Message{
			Id: m.ID, Role: string(RoleActivity), ActivityType: &m.ActivityType, ActivityContent: c.object(m.Content),
			Metadata: c.optObject(m.Metadata), SubagentRunId: opt(m.SubagentRunID),
		}
	case *ReasoningMessage:
		return &pb.Message{
			Id: m.ID, Role: string(RoleReasoning), Content: &m.Content,
			EncryptedValue: opt(m.EncryptedValue), EncryptedValueType: opt(m.EncryptedValueType), Metadata: c.optObject(m.Metadata), SubagentRunId: opt(m.SubagentRunID),
		}
	}
	c.fail("no protobuf form for message %T", m)
	return nil
}

// content splits our string-or-parts content over the two carriers: the
// string (always set, even when empty) or the parts (an empty list when
// the array is empty, which a decoder reads back as []).
func (c *protoConv) content(in Content) (*string, []*pb.InputContent) {
	if !in.IsParts() {
		text := in.Text
		return &text, nil
	}
	parts := make([]*pb.InputContent, len(in.Parts))
	for i, p := range in.Parts {
		parts[i] = c.part(p)
	}
	return nil, parts
}

func (c *protoConv) part(p ContentPart) *pb.InputContent {
	meta := c.optValue(p.Metadata)
	if p.Type == PartText {
		return &pb.InputContent{Part: &pb.InputContent_Text{Text: &pb.TextInputPart{
			Text: p.Text, Id: opt(p.ID), Metadata: meta,
		}}}
	}
	src := c.source(p.Source)
	switch p.Type {
	case PartImage:
		return &pb.InputContent{Part: &pb.InputContent_Image{Image: &pb.ImageInputPart{Source: src, Metadata: meta, Id: opt(p.ID)}}}
	case PartAudio:
		return &pb.InputContent{Part: &pb.InputContent_Audio{Audio: &pb.AudioInputPart{Source: src, Metadata: meta, Id: opt(p.ID)}}}
	case PartVideo:
		return &pb.InputContent{Part: &pb.InputContent_Video{Video: &pb.VideoInputPart{Source: src, Metadata: meta, Id: opt(p.ID)}}}
	case PartDocument:
		return &pb.InputContent{Part: &pb.InputContent_Document{Document: &pb.DocumentInputPart{Source: src, Metadata: meta, Id: opt(p.ID)}}}
	}
	// Dropping the part, as the TypeScript encoder does, would shorten the
	// message silently.
	c.fail("content part type %q has no protobuf form", p.Type)
	return nil
}

func (c *protoConv) source(s *PartSource) *pb.InputContentSource {
	if s == nil {
		return nil
	}
	switch s.Type {
	case SourceData:
		return &pb.InputContentSource{Source: &pb.InputContentSource_Data{Data: &pb.InputContentDataSource{
			Value: s.Value, MimeType: s.MimeType,
		}}}
	case SourceURL:
		return &pb.InputContentSource{Source: &pb.InputContentSource_Url{Url: &pb.InputContentUrlSource{
			Value: s.Value, MimeType: opt(s.MimeType),
		}}}
	case SourceFile:
		return &pb.InputContentSource{Source: &pb.InputContentSource_File{File: &pb.InputContentFileSource{
			Value: s.Value, Provider: opt(s.Provider), MimeType: opt(s.MimeType),
		}}}
	}
	c.fail("content source type %q has no protobuf form", s.Type)
	return nil
}
