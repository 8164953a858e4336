package agui

import (
	"slices"

	"github.com/agui-go/agui/internal/jsonx"
)

// readMessages reads the messages array for [readInput]; size is the
// body's, from which the messages left are estimated for the slabs and
// the slice, as [decoder.messages] counts them.
func (d *decoder) readMessages(r *jsonx.Reader, size int) []Message {
	if !r.Open('[') {
		return nil
	}
	start := r.Offset()
	out := []Message{}
	mark := d.Mark()
	for i := 0; r.More(i, ']'); i++ {
		d.decoded, d.remaining = i, 0
		if i > 0 {
			// The bytes left in the proportion of the bytes per message
			// so far: most of a request's bytes are its messages.
			d.remaining = (size-r.Offset())*i/(r.Offset()-start) + 1
		}
		m := d.readMessage(r)
		if m == nil || d.Err() != nil {
			r.Fail()
			return nil
		}
		if len(out) == cap(out) {
			out = slices.Grow(out, d.remaining+1)
		}
		out = append(out, m)
		d.Release(mark)
	}
	d.decoded, d.remaining = 0, 0
	return out
}

// readMessage reads one message; one of a shape readPlainMessage does not
// read goes to the indexing decoder alone. It returns nil when the message
// is not valid, and the reader or the decoder has stopped.
func (d *decoder) readMessage(r *jsonx.Reader) Message {
	at := r.Mark()
	if m := d.readPlainMessage(r); m != nil {
		return m
	}
	r.Back(at)
	v, ok := r.Value()
	if !ok {
		return nil
	}
	return d.message(v)
}

// messageMembers has a bit for each member of a message
// readPlainMessage reads.
type messageMembers uint16

const (
	mID messageMembers = 1 << iota
	mRole
	mContent
	mName
	mToolCallID
	mError
	mEncryptedValue
	mEncryptedValueType
	mSubagentRunID
	mToolCalls
)

// messageFields holds the members of a message as readPlainMessage reads
// them, before its role, which may come last, says which type they go to.
type messageFields struct {
	id, role, content, name, toolCallID, error        string
	encryptedValue, encryptedValueType, subagentRunID string
	toolCalls                                         []ToolCall
	has                                               messageMembers
}

// readPlainMessage reads a message of one of the usual shapes (string
// content, tool calls, no metadata, no member its role lacks); nil when it
// is not one, or not valid.
func (d *decoder) readPlainMessage(r *jsonx.Reader) Message {
	if !r.Open('{') {
		return nil
	}
	var f messageFields
	for i := 0; r.More(i, '}'); i++ {
		var bit messageMembers
		var p *string
		switch r.Name() {
		case "id":
			bit, p = mID, &f.id
		case "role":
			bit, p = mRole, &f.role
		case "content":
			bit, p = mContent, &f.content
		case "name":
			bit, p = mName, &f.name
		case "toolCallId":
			bit, p = mToolCallID, &f.toolCallID
		case "error":
			bit, p = mError, &f.error
		case "encryptedValue":
			bit, p = mEncryptedValue, &f.encryptedValue
		case "encryptedValueType":
			bit, p = mEncryptedValueType, &f.encryptedValueType
		case "subagentRunId":
			bit, p = mSubagentRunID, &f.subagentRunID
		case "toolCalls":
			bit = mToolCalls
		default:
			return nil
		}
		null := false
		if p != nil {
			*p, null = r.Str()
		} else if null = r.Null(); !null {
			f.toolCalls = d.readToolCalls(r)
		}
		if !r.OK() || f.has&bit != 0 {
			return nil
		}
		if !null {
			f.has |= bit
		}
	}
	if !r.OK() {
		return nil
	}
	return d.plainMessage(&f)
}

// The members each role's message has, and those it requires.
const (
	mEvery     = mID | mRole | mEncryptedValue | mEncryptedValueType | mSubagentRunID
	mText      = mEvery | mContent | mName
	mAssistant = mText | mToolCalls
	mTool      = mEvery | mContent | mToolCallID | mError
	mReasoning = mEvery | mContent
	mNeeded    = mID | mRole | mContent
)

// roleMembers returns the members the message of role has, and those it
// requires; nothing fits a role readPlainMessage does not read.
func roleMembers(role Role) (has, needed messageMembers) {
	switch role {
	case RoleDeveloper, RoleSystem, RoleUser:
		return mText, mNeeded
	case RoleAssistant:
		return mAssistant, mID | mRole
	case RoleTool:
		return mTool, mNeeded | mToolCallID
	case RoleReasoning:
		return mReasoning, mNeeded
	}
	return 0, ^messageMembers(0)
}

// plainMessage makes the message f holds; nil when its role is not one
// readPlainMessage reads, or f lacks a member the role requires or has one
// the role does not.
func (d *decoder) plainMessage(f *messageFields) Message {
	has, needed := roleMembers(Role(f.role))
	if f.has&^has != 0 || f.has&needed != needed {
		return nil
	}
	switch Role(f.role) {
	case RoleDeveloper:
		p := d.developers.New(d.more(d.developers.Taken()))
		*p = DeveloperMessage{ID: f.id, Content: f.content, Name: f.name, EncryptedValue: f.encryptedValue,
			EncryptedValueType: f.encryptedValueType, SubagentRunID: f.subagentRunID}
		return p
	case RoleSystem:
		p := d.systems.New(d.more(d.systems.Taken()))
		*p = SystemMessage{ID: f.id, Content: f.content, Name: f.name, EncryptedValue: f.encryptedValue,
			EncryptedValueType: f.encryptedValueType, SubagentRunID: f.subagentRunID}
		return p
	case RoleUser:
		p := d.users.New(d.more(d.users.Taken()))
		*p = UserMessage{ID: f.id, Content: Content{Text: f.content}, Name: f.name, EncryptedValue: f.encryptedValue,
			EncryptedValueType: f.encryptedValueType, SubagentRunID: f.subagentRunID}
		return p
	case RoleAssistant:
		p := d.assistants.New(d.more(d.assistants.Taken()))
		*p = AssistantMessage{ID: f.id, Content: f.content, Name: f.name, ToolCalls: f.toolCalls,
			EncryptedValue: f.encryptedValue, EncryptedValueType: f.encryptedValueType, SubagentRunID: f.subagentRunID}
		return p
	case RoleTool:
		p := d.toolMsgs.New(d.more(d.toolMsgs.Taken()))
		*p = ToolMessage{ID: f.id, Content: Content{Text: f.content}, ToolCallID: f.toolCallID, Error: f.error,
			EncryptedValue: f.encryptedValue, EncryptedValueType: f.encryptedValueType, SubagentRunID: f.subagentRunID}
		return p
	case RoleReasoning:
		p := d.reasonings.New(d.more(d.reasonings.Taken()))
		*p = ReasoningMessage{ID: f.id, Content: f.content, EncryptedValue: f.encryptedValue,
			EncryptedValueType: f.encryptedValueType, SubagentRunID: f.subagentRunID}
		return p
	}
	return nil
}

// readToolCalls reads an assistant message's array of tool calls, each
// with its id and function and nothing but its encrypted value besides;
// anything else stops the reader.
func (d *decoder) readToolCalls(r *jsonx.Reader) []ToolCall {
	if !r.Open('[') {
		return nil
	}
	var buf [4]ToolCall
	calls := buf[:0]
	for i := 0; r.More(i, ']'); i++ {
		calls = append(calls, readToolCall(r))
	}
	if !r.OK() {
		return nil
	}
	out := d.calls.Take(len(calls), d.more(d.calls.Taken()))
	copy(out, calls)
	return out
}

// The members of a tool call readToolCall reads.
const (
	cID messageMembers = 1 << iota
	cType
	cFunction
	cEncryptedValue
	cEncryptedValueType
)

// readToolCall reads one tool call for readToolCalls.
func readToolCall(r *jsonx.Reader) ToolCall {
	var tc ToolCall
	if !r.Open('{') {
		return tc
	}
	var has messageMembers
	for i := 0; r.More(i, '}'); i++ {
		var bit messageMembers
		null := false
		switch r.Name() {
		case "id":
			bit = cID
			tc.ID, null = r.Str()
		case "type":
			// "function", the only type, or absent.
			bit = cType
			var t string
			if t, null = r.Str(); !null && t != "function" {
				r.Fail()
			}
		case "function":
			bit = cFunction
			tc.Function = readFunction(r)
		case "encryptedValue":
			bit = cEncryptedValue
			tc.EncryptedValue, null = r.Str()
		case "encryptedValueType":
			bit = cEncryptedValueType
			tc.EncryptedValueType, null = r.Str()
		default:
			r.Fail()
		}
		if has&bit != 0 || (null && bit&(cID|cFunction) != 0) {
			r.Fail()
		}
		if !r.OK() {
			return tc
		}
		if !null {
			has |= bit
		}
	}
	if has&(cID|cFunction) != cID|cFunction {
		r.Fail()
	}
	return tc
}

// readFunction reads a tool call's function: its name and arguments,
// both required, and nothing else.
func readFunction(r *jsonx.Reader) FunctionCall {
	var f FunctionCall
	if !r.Open('{') {
		return f
	}
	var has messageMembers
	for i := 0; r.More(i, '}'); i++ {
		var bit messageMembers
		var p *string
		switch r.Name() {
		case "name":
			bit, p = 1, &f.Name
		case "arguments":
			bit, p = 2, &f.Arguments
		default:
			r.Fail()
			return f
		}
		s, null := r.Str()
		if null || has&bit != 0 {
			r.Fail()
		}
		*p = s
		has |= bit
	}
	if has != 3 {
		r.Fail()
	}
	return f
}
