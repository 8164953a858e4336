package core

// TEMPORARY (branch loop): stand-in AppendJSON methods so that event
// values satisfy Event until the wire branch, which owns the encoding, is
// merged. Delete this file when merging wire.

import "encoding/json"

func shimAppend(dst []byte, v any) ([]byte, error) {
	b, err := json.Marshal(v)
	return append(dst, b...), err
}

func (e *TextMessageStart) AppendJSON(dst []byte) ([]byte, error)        { return shimAppend(dst, *e) }
func (e *TextMessageContent) AppendJSON(dst []byte) ([]byte, error)      { return shimAppend(dst, *e) }
func (e *TextMessageEnd) AppendJSON(dst []byte) ([]byte, error)          { return shimAppend(dst, *e) }
func (e *TextMessageChunk) AppendJSON(dst []byte) ([]byte, error)        { return shimAppend(dst, *e) }
func (e *ToolCallStart) AppendJSON(dst []byte) ([]byte, error)           { return shimAppend(dst, *e) }
func (e *ToolCallArgs) AppendJSON(dst []byte) ([]byte, error)            { return shimAppend(dst, *e) }
func (e *ToolCallEnd) AppendJSON(dst []byte) ([]byte, error)             { return shimAppend(dst, *e) }
func (e *ToolCallChunk) AppendJSON(dst []byte) ([]byte, error)           { return shimAppend(dst, *e) }
func (e *ToolCallResult) AppendJSON(dst []byte) ([]byte, error)          { return shimAppend(dst, *e) }
func (e *StateSnapshot) AppendJSON(dst []byte) ([]byte, error)           { return shimAppend(dst, *e) }
func (e *StateDelta) AppendJSON(dst []byte) ([]byte, error)              { return shimAppend(dst, *e) }
func (e *MessagesSnapshot) AppendJSON(dst []byte) ([]byte, error)        { return shimAppend(dst, *e) }
func (e *ActivitySnapshot) AppendJSON(dst []byte) ([]byte, error)        { return shimAppend(dst, *e) }
func (e *ActivityDelta) AppendJSON(dst []byte) ([]byte, error)           { return shimAppend(dst, *e) }
func (e *Raw) AppendJSON(dst []byte) ([]byte, error)                     { return shimAppend(dst, *e) }
func (e *Custom) AppendJSON(dst []byte) ([]byte, error)                  { return shimAppend(dst, *e) }
func (e *RunStarted) AppendJSON(dst []byte) ([]byte, error)              { return shimAppend(dst, *e) }
func (e *RunFinished) AppendJSON(dst []byte) ([]byte, error)             { return shimAppend(dst, *e) }
func (e *RunError) AppendJSON(dst []byte) ([]byte, error)                { return shimAppend(dst, *e) }
func (e *StepStarted) AppendJSON(dst []byte) ([]byte, error)             { return shimAppend(dst, *e) }
func (e *StepFinished) AppendJSON(dst []byte) ([]byte, error)            { return shimAppend(dst, *e) }
func (e *ReasoningStart) AppendJSON(dst []byte) ([]byte, error)          { return shimAppend(dst, *e) }
func (e *ReasoningMessageStart) AppendJSON(dst []byte) ([]byte, error)   { return shimAppend(dst, *e) }
func (e *ReasoningMessageContent) AppendJSON(dst []byte) ([]byte, error) { return shimAppend(dst, *e) }
func (e *ReasoningMessageEnd) AppendJSON(dst []byte) ([]byte, error)     { return shimAppend(dst, *e) }
func (e *ReasoningMessageChunk) AppendJSON(dst []byte) ([]byte, error)   { return shimAppend(dst, *e) }
func (e *ReasoningEnd) AppendJSON(dst []byte) ([]byte, error)            { return shimAppend(dst, *e) }
func (e *ReasoningEncryptedValue) AppendJSON(dst []byte) ([]byte, error) { return shimAppend(dst, *e) }
func (e *SubagentStarted) AppendJSON(dst []byte) ([]byte, error)         { return shimAppend(dst, *e) }
func (e *SubagentFinished) AppendJSON(dst []byte) ([]byte, error)        { return shimAppend(dst, *e) }
func (e *SubagentError) AppendJSON(dst []byte) ([]byte, error)           { return shimAppend(dst, *e) }
