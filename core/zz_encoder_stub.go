package core

// TEMPORARY: stands in for the wire branch encoders until it is merged.

import "errors"

var errNoEncoder = errors.New("encoder not merged yet")

func (*TextMessageStart) AppendJSON(dst []byte) ([]byte, error)        { return dst, errNoEncoder }
func (*TextMessageContent) AppendJSON(dst []byte) ([]byte, error)      { return dst, errNoEncoder }
func (*TextMessageEnd) AppendJSON(dst []byte) ([]byte, error)          { return dst, errNoEncoder }
func (*TextMessageChunk) AppendJSON(dst []byte) ([]byte, error)        { return dst, errNoEncoder }
func (*ToolCallStart) AppendJSON(dst []byte) ([]byte, error)           { return dst, errNoEncoder }
func (*ToolCallArgs) AppendJSON(dst []byte) ([]byte, error)            { return dst, errNoEncoder }
func (*ToolCallEnd) AppendJSON(dst []byte) ([]byte, error)             { return dst, errNoEncoder }
func (*ToolCallChunk) AppendJSON(dst []byte) ([]byte, error)           { return dst, errNoEncoder }
func (*ToolCallResult) AppendJSON(dst []byte) ([]byte, error)          { return dst, errNoEncoder }
func (*StateSnapshot) AppendJSON(dst []byte) ([]byte, error)           { return dst, errNoEncoder }
func (*StateDelta) AppendJSON(dst []byte) ([]byte, error)              { return dst, errNoEncoder }
func (*MessagesSnapshot) AppendJSON(dst []byte) ([]byte, error)        { return dst, errNoEncoder }
func (*ActivitySnapshot) AppendJSON(dst []byte) ([]byte, error)        { return dst, errNoEncoder }
func (*ActivityDelta) AppendJSON(dst []byte) ([]byte, error)           { return dst, errNoEncoder }
func (*Raw) AppendJSON(dst []byte) ([]byte, error)                     { return dst, errNoEncoder }
func (*Custom) AppendJSON(dst []byte) ([]byte, error)                  { return dst, errNoEncoder }
func (*RunStarted) AppendJSON(dst []byte) ([]byte, error)              { return dst, errNoEncoder }
func (*RunFinished) AppendJSON(dst []byte) ([]byte, error)             { return dst, errNoEncoder }
func (*RunError) AppendJSON(dst []byte) ([]byte, error)                { return dst, errNoEncoder }
func (*StepStarted) AppendJSON(dst []byte) ([]byte, error)             { return dst, errNoEncoder }
func (*StepFinished) AppendJSON(dst []byte) ([]byte, error)            { return dst, errNoEncoder }
func (*ReasoningStart) AppendJSON(dst []byte) ([]byte, error)          { return dst, errNoEncoder }
func (*ReasoningMessageStart) AppendJSON(dst []byte) ([]byte, error)   { return dst, errNoEncoder }
func (*ReasoningMessageContent) AppendJSON(dst []byte) ([]byte, error) { return dst, errNoEncoder }
func (*ReasoningMessageEnd) AppendJSON(dst []byte) ([]byte, error)     { return dst, errNoEncoder }
func (*ReasoningMessageChunk) AppendJSON(dst []byte) ([]byte, error)   { return dst, errNoEncoder }
func (*ReasoningEnd) AppendJSON(dst []byte) ([]byte, error)            { return dst, errNoEncoder }
func (*ReasoningEncryptedValue) AppendJSON(dst []byte) ([]byte, error) { return dst, errNoEncoder }
func (*SubagentStarted) AppendJSON(dst []byte) ([]byte, error)         { return dst, errNoEncoder }
func (*SubagentFinished) AppendJSON(dst []byte) ([]byte, error)        { return dst, errNoEncoder }
func (*SubagentError) AppendJSON(dst []byte) ([]byte, error)           { return dst, errNoEncoder }
