package agui

// EventType names an AG-UI event on the wire (the JSON "type" field).
//
// The set is closed: AG-UI 1.0 defines exactly the 31 constants below, in the
// order of @ag-ui/core's EventType enum.
type EventType string

// The 31 event types of AG-UI 1.0.
const (
	TypeTextMessageStart        EventType = "TEXT_MESSAGE_START"
	TypeTextMessageContent      EventType = "TEXT_MESSAGE_CONTENT"
	TypeTextMessageEnd          EventType = "TEXT_MESSAGE_END"
	TypeTextMessageChunk        EventType = "TEXT_MESSAGE_CHUNK"
	TypeToolCallStart           EventType = "TOOL_CALL_START"
	TypeToolCallArgs            EventType = "TOOL_CALL_ARGS"
	TypeToolCallEnd             EventType = "TOOL_CALL_END"
	TypeToolCallChunk           EventType = "TOOL_CALL_CHUNK"
	TypeToolCallResult          EventType = "TOOL_CALL_RESULT"
	TypeStateSnapshot           EventType = "STATE_SNAPSHOT"
	TypeStateDelta              EventType = "STATE_DELTA"
	TypeMessagesSnapshot        EventType = "MESSAGES_SNAPSHOT"
	TypeActivitySnapshot        EventType = "ACTIVITY_SNAPSHOT"
	TypeActivityDelta           EventType = "ACTIVITY_DELTA"
	TypeRaw                     EventType = "RAW"
	TypeCustom                  EventType = "CUSTOM"
	TypeRunStarted              EventType = "RUN_STARTED"
	TypeRunFinished             EventType = "RUN_FINISHED"
	TypeRunError                EventType = "RUN_ERROR"
	TypeStepStarted             EventType = "STEP_STARTED"
	TypeStepFinished            EventType = "STEP_FINISHED"
	TypeReasoningStart          EventType = "REASONING_START"
	TypeReasoningMessageStart   EventType = "REASONING_MESSAGE_START"
	TypeReasoningMessageContent EventType = "REASONING_MESSAGE_CONTENT"
	TypeReasoningMessageEnd     EventType = "REASONING_MESSAGE_END"
	TypeReasoningMessageChunk   EventType = "REASONING_MESSAGE_CHUNK"
	TypeReasoningEnd            EventType = "REASONING_END"
	TypeReasoningEncryptedValue EventType = "REASONING_ENCRYPTED_VALUE"
	TypeSubagentStarted         EventType = "SUBAGENT_STARTED"
	TypeSubagentFinished        EventType = "SUBAGENT_FINISHED"
	TypeSubagentError           EventType = "SUBAGENT_ERROR"
)

// EventTypes lists every event type in the order of the 1.0 enum.
func EventTypes() []EventType {
	return []EventType{
		TypeTextMessageStart, TypeTextMessageContent, TypeTextMessageEnd, TypeTextMessageChunk,
		TypeToolCallStart, TypeToolCallArgs, TypeToolCallEnd, TypeToolCallChunk, TypeToolCallResult,
		TypeStateSnapshot, TypeStateDelta, TypeMessagesSnapshot, TypeActivitySnapshot, TypeActivityDelta,
		TypeRaw, TypeCustom, TypeRunStarted, TypeRunFinished, TypeRunError, TypeStepStarted, TypeStepFinished,
		TypeReasoningStart, TypeReasoningMessageStart, TypeReasoningMessageContent, TypeReasoningMessageEnd,
		TypeReasoningMessageChunk, TypeReasoningEnd, TypeReasoningEncryptedValue,
		TypeSubagentStarted, TypeSubagentFinished, TypeSubagentError,
	}
}

// Known reports whether t is one of the 31 AG-UI 1.0 event types.
func (t EventType) Known() bool {
	for _, k := range EventTypes() {
		if k == t {
			return true
		}
	}
	return false
}
