package core

// TEMPORARY (branch http): stand-ins for names other branches are writing
// (wire: AppendSSE, SSEHeartbeat; decode: DecodeInput, InputError,
// Downgrade; proto: Format, Negotiate). Deleted as each branch is merged.

import (
	"encoding/json"
	"strings"
)

// SSEHeartbeat is an SSE comment line clients ignore.
const SSEHeartbeat = ": ping\n\n"

// AppendSSE appends ev as one SSE frame.
func AppendSSE(dst []byte, ev Event) ([]byte, error) {
	dst = append(dst, "data: "...)
	dst, err := ev.AppendJSON(dst)
	if err != nil {
		return dst, err
	}
	return append(dst, "\n\n"...), nil
}

// InputError is a RunAgentInput decode failure.
type InputError struct {
	Field     string
	Reason    string
	Malformed bool
}

func (e *InputError) Error() string { return e.Field + ": " + e.Reason }

// DecodeInput decodes a RunAgentInput.
func DecodeInput(data []byte) (*RunAgentInput, error) {
	var raw struct {
		ThreadID        string `json:"threadId"`
		RunID           string `json:"runId"`
		ProtocolVersion string `json:"protocolVersion"`
		Messages        []struct {
			ID      string `json:"id"`
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, &InputError{Reason: err.Error(), Malformed: true}
	}
	if raw.ThreadID == "" {
		return nil, &InputError{Field: "threadId", Reason: "required"}
	}
	if raw.RunID == "" {
		return nil, &InputError{Field: "runId", Reason: "required"}
	}
	in := &RunAgentInput{ThreadID: raw.ThreadID, RunID: raw.RunID, ProtocolVersion: raw.ProtocolVersion}
	for _, m := range raw.Messages {
		switch Role(m.Role) {
		case RoleUser:
			in.Messages = append(in.Messages, &UserMessage{ID: m.ID, Content: TextContent(m.Content)})
		case RoleAssistant:
			in.Messages = append(in.Messages, &AssistantMessage{ID: m.ID, Content: m.Content})
		default:
			return nil, &InputError{Field: "messages.role", Reason: "unknown role"}
		}
	}
	if v := raw.ProtocolVersion; v != "" && !strings.HasPrefix(v, "1.") && v != "1" {
		return nil, &InputError{Field: "protocolVersion", Reason: "unsupported major"}
	}
	return in, nil
}

// Downgrade rewrites ev for a pre-1.0 client.
func Downgrade(ev Event) (Event, bool) {
	switch ev.Type() {
	case TypeSubagentStarted, TypeSubagentFinished, TypeSubagentError:
		return nil, false
	}
	return ev, false
}

// Format is a negotiated stream encoding.
type Format int

// The stream encodings.
const (
	FormatSSE Format = iota
	FormatProto
)

// Negotiate picks the encoding for an Accept header.
func Negotiate(accept string) Format {
	if strings.Contains(accept, "application/vnd.ag-ui.event+proto") {
		return FormatProto
	}
	return FormatSSE
}

// ContentType is the media type of f.
func (f Format) ContentType() string {
	if f == FormatProto {
		return "application/vnd.ag-ui.event+proto"
	}
	return "text/event-stream"
}

// AppendFrame appends ev framed in f.
func (f Format) AppendFrame(dst []byte, ev Event) ([]byte, error) {
	if f == FormatProto {
		dst = append(dst, 0, 0, 0, 0)
		return ev.AppendJSON(dst)
	}
	return AppendSSE(dst, ev)
}

// Stand-in encoders (wire branch replaces them).
func (e *TextMessageStart) AppendJSON(dst []byte) ([]byte, error) { return appendStub(dst, e) }
func (e *TextMessageContent) AppendJSON(dst []byte) ([]byte, error) { return appendStub(dst, e) }
func (e *TextMessageEnd) AppendJSON(dst []byte) ([]byte, error) { return appendStub(dst, e) }
func (e *TextMessageChunk) AppendJSON(dst []byte) ([]byte, error) { return appendStub(dst, e) }
func (e *ToolCallStart) AppendJSON(dst []byte) ([]byte, error) { return appendStub(dst, e) }
func (e *ToolCallArgs) AppendJSON(dst []byte) ([]byte, error) { return appendStub(dst, e) }
func (e *ToolCallEnd) AppendJSON(dst []byte) ([]byte, error) { return appendStub(dst, e) }
func (e *ToolCallChunk) AppendJSON(dst []byte) ([]byte, error) { return appendStub(dst, e) }
func (e *ToolCallResult) AppendJSON(dst []byte) ([]byte, error) { return appendStub(dst, e) }
func (e *StateSnapshot) AppendJSON(dst []byte) ([]byte, error) { return appendStub(dst, e) }
func (e *StateDelta) AppendJSON(dst []byte) ([]byte, error) { return appendStub(dst, e) }
func (e *MessagesSnapshot) AppendJSON(dst []byte) ([]byte, error) { return appendStub(dst, e) }
func (e *ActivitySnapshot) AppendJSON(dst []byte) ([]byte, error) { return appendStub(dst, e) }
func (e *ActivityDelta) AppendJSON(dst []byte) ([]byte, error) { return appendStub(dst, e) }
func (e *Raw) AppendJSON(dst []byte) ([]byte, error) { return appendStub(dst, e) }
func (e *Custom) AppendJSON(dst []byte) ([]byte, error) { return appendStub(dst, e) }
func (e *RunStarted) AppendJSON(dst []byte) ([]byte, error) { return appendStub(dst, e) }
func (e *RunFinished) AppendJSON(dst []byte) ([]byte, error) { return appendStub(dst, e) }
func (e *RunError) AppendJSON(dst []byte) ([]byte, error) { return appendStub(dst, e) }
func (e *StepStarted) AppendJSON(dst []byte) ([]byte, error) { return appendStub(dst, e) }
func (e *StepFinished) AppendJSON(dst []byte) ([]byte, error) { return appendStub(dst, e) }
func (e *ReasoningStart) AppendJSON(dst []byte) ([]byte, error) { return appendStub(dst, e) }
func (e *ReasoningMessageStart) AppendJSON(dst []byte) ([]byte, error) { return appendStub(dst, e) }
func (e *ReasoningMessageContent) AppendJSON(dst []byte) ([]byte, error) { return appendStub(dst, e) }
func (e *ReasoningMessageEnd) AppendJSON(dst []byte) ([]byte, error) { return appendStub(dst, e) }
func (e *ReasoningMessageChunk) AppendJSON(dst []byte) ([]byte, error) { return appendStub(dst, e) }
func (e *ReasoningEnd) AppendJSON(dst []byte) ([]byte, error) { return appendStub(dst, e) }
func (e *ReasoningEncryptedValue) AppendJSON(dst []byte) ([]byte, error) { return appendStub(dst, e) }
func (e *SubagentStarted) AppendJSON(dst []byte) ([]byte, error) { return appendStub(dst, e) }
func (e *SubagentFinished) AppendJSON(dst []byte) ([]byte, error) { return appendStub(dst, e) }
func (e *SubagentError) AppendJSON(dst []byte) ([]byte, error) { return appendStub(dst, e) }

func appendStub(dst []byte, ev Event) ([]byte, error) {
	b, err := json.Marshal(ev)
	if err != nil {
		return dst, err
	}
	dst = append(dst, `{"type":"`+string(ev.Type())+`"`...)
	if len(b) > 2 {
		dst = append(dst, ',')
	}
	return append(dst, b[1:]...), nil
}
