package client

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/internal/jsonpatch"
)

// View is what a thread's events reduce to, the way @ag-ui/client's
// default reducer applies them: the messages (activities among them, as
// [*agui.ActivityMessage]), the state, and how the last run ended.
//
// A View is not safe for concurrent use: [Agent.Events] updates it on the
// caller's goroutine before yielding each event, so read it in the loop
// body or after the loop.
type View struct {
	// Messages is the conversation, in order. Text, tool call and reasoning
	// events build and extend messages by id; MESSAGES_SNAPSHOT replaces the
	// list; TOOL_CALL_RESULT adds a tool message; ACTIVITY_SNAPSHOT and
	// ACTIVITY_DELTA build activity messages.
	Messages []agui.Message
	// State is the shared state in decoded-JSON form (nil, bool, float64,
	// string, []any, map[string]any); nil before any. See [State] for a
	// typed copy.
	State any
	// Finished is the last run's RUN_FINISHED, nil if none came (or the run
	// ended in error).
	Finished *agui.RunFinished
	// RunError is the stream's last RUN_ERROR: the agent reporting its own
	// failure, which ends its run but is no error of the stream (a later
	// run of the same response may still finish).
	RunError *agui.RunError

	// text holds the builder of each message and tool call whose text is
	// streaming, by "message <id>" or "tool call <id>".
	text map[string]*strings.Builder
}

// NewView returns a view that starts from the messages and state of in,
// as the agent sees them when the run starts.
func NewView(in *agui.RunAgentInput) (*View, error) {
	v := &View{Messages: slices.Clone(in.Messages)}
	if in.State != nil {
		s, err := jsonpatch.Normalize(in.State)
		if err != nil {
			return nil, agui.NewError(agui.CodeSerialization, "client: the input's state is not JSON: "+err.Error())
		}
		v.State = s
	}
	return v, nil
}

// Outcome is how the last run finished: its RUN_FINISHED outcome (success
// when the event carries none), or nil when it ended in RUN_ERROR or has not
// ended.
func (v *View) Outcome() *agui.Outcome {
	switch {
	case v.Finished == nil:
		return nil
	case v.Finished.Outcome != nil:
		return v.Finished.Outcome
	}
	o := agui.Success()
	return &o
}

// Activities returns the activity messages of [View.Messages].
func (v *View) Activities() []*agui.ActivityMessage {
	var out []*agui.ActivityMessage
	for _, m := range v.Messages {
		if a, ok := m.(*agui.ActivityMessage); ok {
			out = append(out, a)
		}
	}
	return out
}

// State returns v's state decoded into an S, by way of its JSON.
func State[S any](v *View) (S, error) {
	var s S
	b, err := json.Marshal(v.State)
	if err == nil {
		err = json.Unmarshal(b, &s)
	}
	if err != nil {
		return s, agui.NewError(agui.CodeSerialization, "client: the state does not decode into the type asked for: "+err.Error())
	}
	return s, nil
}

// find returns the index of the message with id, or -1.
func (v *View) find(id string) int {
	for i := len(v.Messages) - 1; i >= 0; i-- {
		if v.Messages[i].MessageID() == id {
			return i
		}
	}
	return -1
}

// toolCall returns the tool call with id among the assistant messages, or nil.
func (v *View) toolCall(id string) *agui.ToolCall {
	for i := len(v.Messages) - 1; i >= 0; i-- {
		if a, ok := v.Messages[i].(*agui.AssistantMessage); ok {
			for j := range a.ToolCalls {
				if a.ToolCalls[j].ID == id {
					return &a.ToolCalls[j]
				}
			}
		}
	}
	return nil
}

// apply reduces one verified event into v; warn reports what it could not
// apply.
func (v *View) apply(ev agui.Event, warn func(string)) {
	sub := agui.SubagentOf(ev)
	meta := agui.BaseOf(ev).Metadata
	switch e := ev.(type) {
	case *agui.RunStarted:
		v.Finished = nil
		if e.Input != nil {
			for _, m := range e.Input.Messages {
				if v.find(m.MessageID()) < 0 {
					v.Messages = append(v.Messages, m)
				}
			}
		}
	case *agui.RunFinished:
		v.Finished = e
	case *agui.RunError:
		v.RunError = e
	case *agui.TextMessageStart:
		if i := v.find(e.MessageID); i >= 0 {
			// A message reopened by id goes on where it stopped.
			mergeMeta(v.Messages[i], meta)
			return
		}
		v.Messages = append(v.Messages, newTextMessage(e.MessageID, e.Role, e.Name, sub, meta))
	case *agui.TextMessageContent:
		if i := v.find(e.MessageID); i >= 0 {
			v.appendText(v.Messages[i], e.Delta)
			mergeMeta(v.Messages[i], meta)
		}
	case *agui.TextMessageEnd:
		if i := v.find(e.MessageID); i >= 0 {
			mergeMeta(v.Messages[i], meta)
		}
	case *agui.ToolCallStart:
		v.startToolCall(e, meta, warn)
	case *agui.ToolCallArgs:
		if tc := v.toolCall(e.ToolCallID); tc != nil {
			v.grow("tool call "+e.ToolCallID, &tc.Function.Arguments, e.Delta)
			tc.Metadata = merge(tc.Metadata, meta)
		}
	case *agui.ToolCallEnd:
		if tc := v.toolCall(e.ToolCallID); tc != nil {
			tc.Metadata = merge(tc.Metadata, meta)
		}
	case *agui.ToolCallResult:
		v.toolResult(e, sub, meta)
	case *agui.ReasoningMessageStart:
		if i := v.find(e.MessageID); i >= 0 {
			mergeMeta(v.Messages[i], meta)
			return
		}
		v.Messages = append(v.Messages, &agui.ReasoningMessage{ID: e.MessageID, SubagentRunID: sub, Metadata: merge(nil, meta)})
	case *agui.ReasoningMessageContent:
		if i := v.find(e.MessageID); i >= 0 {
			v.appendText(v.Messages[i], e.Delta)
			mergeMeta(v.Messages[i], meta)
		}
	case *agui.ReasoningMessageEnd:
		if i := v.find(e.MessageID); i >= 0 {
			mergeMeta(v.Messages[i], meta)
		}
	case *agui.ReasoningEncryptedValue:
		v.encrypted(e, warn)
	case *agui.MessagesSnapshot:
		v.snapshot(e.Messages)
		v.text = nil
	case *agui.StateSnapshot:
		s, err := jsonpatch.Normalize(e.Snapshot)
		if err != nil {
			warn("cannot read the state snapshot, the state is kept: " + err.Error())
			return
		}
		v.State = s
	case *agui.StateDelta:
		s, err := jsonpatch.Apply(v.State, e.Delta)
		if err != nil {
			warn("Failed to apply state patch, the state is kept: " + err.Error())
			return
		}
		v.State = s
	case *agui.ActivitySnapshot:
		v.activitySnapshot(e, sub, meta)
	case *agui.ActivityDelta:
		v.activityDelta(e, warn)
	}
}

func newTextMessage(id string, role agui.Role, name, sub string, meta map[string]any) agui.Message {
	meta = merge(nil, meta)
	switch role {
	case agui.RoleUser:
		return &agui.UserMessage{ID: id, Name: name, SubagentRunID: sub, Metadata: meta}
	case agui.RoleSystem:
		return &agui.SystemMessage{ID: id, Name: name, SubagentRunID: sub, Metadata: meta}
	case agui.RoleDeveloper:
		return &agui.DeveloperMessage{ID: id, Name: name, SubagentRunID: sub, Metadata: meta}
	}
	return &agui.AssistantMessage{ID: id, Name: name, SubagentRunID: sub, Metadata: meta}
}

// appendText appends delta to a message's text. Each message streaming
// text has a builder, so a long answer costs linear time and memory rather
// than a copy of the whole text per delta: a strings.Builder's String does
// not copy. A text changed other than by a delta (a snapshot, the caller)
// no longer matches its builder's and starts a new one.
func (v *View) appendText(m agui.Message, delta string) {
	var text *string
	switch m := m.(type) {
	case *agui.AssistantMessage:
		text = &m.Content
	case *agui.SystemMessage:
		text = &m.Content
	case *agui.DeveloperMessage:
		text = &m.Content
	case *agui.ReasoningMessage:
		text = &m.Content
	case *agui.UserMessage:
		text = &m.Content.Text
		m.Content.Parts = nil
	default:
		return
	}
	v.grow("message "+m.MessageID(), text, delta)
}

// grow appends delta to *text through the builder kept under key.
func (v *View) grow(key string, text *string, delta string) {
	if v.text == nil {
		v.text = map[string]*strings.Builder{}
	}
	b := v.text[key]
	if b == nil || b.Len() != len(*text) || b.String() != *text {
		b = &strings.Builder{}
		b.WriteString(*text)
		v.text[key] = b
	}
	b.WriteString(delta)
	*text = b.String()
}

// merge merges src into dst key by key, the last write winning, and
// returns dst (made when nil and src is not empty).
func merge(dst, src map[string]any) map[string]any {
	if len(src) == 0 {
		return dst
	}
	if dst == nil {
		dst = make(map[string]any, len(src))
	}
	maps.Copy(dst, src)
	return dst
}

// mergeMeta merges an event's metadata into its message's.
func mergeMeta(m agui.Message, meta map[string]any) {
	if len(meta) == 0 {
		return
	}
	switch m := m.(type) {
	case *agui.AssistantMessage:
		m.Metadata = merge(m.Metadata, meta)
	case *agui.UserMessage:
		m.Metadata = merge(m.Metadata, meta)
	case *agui.SystemMessage:
		m.Metadata = merge(m.Metadata, meta)
	case *agui.DeveloperMessage:
		m.Metadata = merge(m.Metadata, meta)
	case *agui.ReasoningMessage:
		m.Metadata = merge(m.Metadata, meta)
	}
}

// startToolCall adds a call to the assistant message its parentMessageId
// names, or to a new assistant message (with the parent's id, or the
// call's when there is none or it names a message of another role). A
// start for a call that exists already (a replay) renames it and merges
// its metadata, so a call is never held twice.
func (v *View) startToolCall(e *agui.ToolCallStart, meta map[string]any, warn func(string)) {
	if tc := v.toolCall(e.ToolCallID); tc != nil {
		if tc.Function.Name != e.ToolCallName {
			warn("tool call " + e.ToolCallID + " starts again as " + e.ToolCallName + ", renamed from " + tc.Function.Name)
			tc.Function.Name = e.ToolCallName
		}
		tc.Metadata = merge(tc.Metadata, meta)
		return
	}
	tc := agui.ToolCall{ID: e.ToolCallID, Function: agui.FunctionCall{Name: e.ToolCallName}, Metadata: merge(nil, meta)}
	id := e.ToolCallID
	if e.ParentMessageID != "" {
		id = e.ParentMessageID
		if i := v.find(e.ParentMessageID); i >= 0 {
			if a, ok := v.Messages[i].(*agui.AssistantMessage); ok {
				a.ToolCalls = append(a.ToolCalls, tc)
				return
			}
			warn("tool call " + e.ToolCallID + " names parent " + e.ParentMessageID + ", a " + string(v.Messages[i].Role()) + " message; it gets its own assistant message")
			id = e.ToolCallID
		}
	}
	v.Messages = append(v.Messages, &agui.AssistantMessage{ID: id, ToolCalls: []agui.ToolCall{tc}, SubagentRunID: e.SubagentRunID})
}

// toolResult adds the tool message of a result right after the assistant
// message that made the call (and any results already there), since a
// provider wants a call followed by its result; at the end when no
// message made it.
func (v *View) toolResult(e *agui.ToolCallResult, sub string, meta map[string]any) {
	m := &agui.ToolMessage{ID: e.MessageID, ToolCallID: e.ToolCallID, Content: e.Content, SubagentRunID: sub, Metadata: merge(nil, meta)}
	at := len(v.Messages)
	for i, msg := range v.Messages {
		if a, ok := msg.(*agui.AssistantMessage); ok && slices.ContainsFunc(a.ToolCalls, func(tc agui.ToolCall) bool { return tc.ID == e.ToolCallID }) {
			at = i + 1
			for at < len(v.Messages) && v.Messages[at].Role() == agui.RoleTool {
				at++
			}
			break
		}
	}
	v.Messages = slices.Insert(v.Messages, at, agui.Message(m))
}

// snapshot merges a MESSAGES_SNAPSHOT by id: a message the snapshot holds
// is replaced where it stands, one it does not hold is dropped, and its
// new messages are appended. Activity and reasoning messages are kept when
// the snapshot has none of their role, since many agents never send them
// back; a snapshot that has some is the whole set.
func (v *View) snapshot(ms []agui.Message) {
	byID := make(map[string]agui.Message, len(ms))
	hasRole := map[agui.Role]bool{}
	for _, m := range ms {
		byID[m.MessageID()] = m
		hasRole[m.Role()] = true
	}
	kept := v.Messages[:0:0]
	seen := map[string]bool{}
	for _, m := range v.Messages {
		r := m.Role()
		switch {
		case (r == agui.RoleActivity || r == agui.RoleReasoning) && !hasRole[r]:
			kept = append(kept, m)
		case byID[m.MessageID()] != nil:
			kept = append(kept, byID[m.MessageID()])
		default:
			continue
		}
		seen[m.MessageID()] = true
	}
	for _, m := range ms {
		if !seen[m.MessageID()] {
			kept = append(kept, m)
		}
	}
	v.Messages = kept
}

// encrypted stores an encrypted value on the message or tool call it names,
// with its encryptedValueType (AG-UI 1.1): a type labels one value, so a
// value without a type deletes the stored one. An entity nothing matches
// is tolerated with a warning.
func (v *View) encrypted(e *agui.ReasoningEncryptedValue, warn func(string)) {
	val, typ := e.EncryptedValue, e.EncryptedValueType
	if e.Subtype == agui.EncryptedToolCall {
		if tc := v.toolCall(e.EntityID); tc != nil {
			tc.EncryptedValue, tc.EncryptedValueType = val, typ
			return
		}
	} else if i := v.find(e.EntityID); i >= 0 {
		switch m := v.Messages[i].(type) {
		case *agui.AssistantMessage:
			m.EncryptedValue, m.EncryptedValueType = val, typ
		case *agui.UserMessage:
			m.EncryptedValue, m.EncryptedValueType = val, typ
		case *agui.SystemMessage:
			m.EncryptedValue, m.EncryptedValueType = val, typ
		case *agui.DeveloperMessage:
			m.EncryptedValue, m.EncryptedValueType = val, typ
		case *agui.ToolMessage:
			m.EncryptedValue, m.EncryptedValueType = val, typ
		case *agui.ReasoningMessage:
			m.EncryptedValue, m.EncryptedValueType = val, typ
		}
		return
	}
	warn("no " + string(e.Subtype) + " " + e.EntityID + " for the encrypted value; it is dropped")
}

// activitySnapshot creates or replaces an activity message; replace:false
// keeps an existing one as it is. A replace replaces the content, not the
// metadata gathered so far, and the event's metadata merges in either way.
func (v *View) activitySnapshot(e *agui.ActivitySnapshot, sub string, meta map[string]any) {
	i := v.find(e.MessageID)
	var target *agui.ActivityMessage
	old, isActivity := (*agui.ActivityMessage)(nil), false
	if i >= 0 {
		old, isActivity = v.Messages[i].(*agui.ActivityMessage)
	}
	replace := e.Replace == nil || *e.Replace
	switch {
	case i < 0:
		target = &agui.ActivityMessage{ID: e.MessageID, ActivityType: e.ActivityType, Content: e.Content, SubagentRunID: sub}
		v.Messages = append(v.Messages, target)
	case isActivity && replace:
		target = &agui.ActivityMessage{ID: e.MessageID, ActivityType: e.ActivityType, Content: e.Content, SubagentRunID: old.SubagentRunID, Metadata: old.Metadata}
		v.Messages[i] = target
	case isActivity:
		target = old
	case replace:
		target = &agui.ActivityMessage{ID: e.MessageID, ActivityType: e.ActivityType, Content: e.Content, SubagentRunID: sub}
		v.Messages[i] = target
	default:
		return
	}
	target.Metadata = merge(target.Metadata, meta)
}

// activityDelta patches an activity's content; a delta for an activity
// that does not exist, or one that does not apply, changes nothing.
func (v *View) activityDelta(e *agui.ActivityDelta, warn func(string)) {
	i := v.find(e.MessageID)
	a, ok := (*agui.ActivityMessage)(nil), false
	if i >= 0 {
		a, ok = v.Messages[i].(*agui.ActivityMessage)
	}
	if !ok {
		warn("no activity " + e.MessageID + " for the ACTIVITY_DELTA; it is skipped")
		return
	}
	// The metadata does not depend on the patch applying.
	a.Metadata = merge(a.Metadata, agui.BaseOf(e).Metadata)
	doc, err := jsonpatch.Normalize(a.Content)
	if err == nil {
		doc, err = jsonpatch.Apply(doc, e.Patch)
	}
	content, isObject := doc.(map[string]any)
	if err != nil || !isObject {
		msg := "the ACTIVITY_DELTA does not apply to activity " + e.MessageID + ", its content is kept"
		if err != nil {
			msg += ": " + err.Error()
		}
		warn(msg)
		return
	}
	a.Content, a.ActivityType = content, e.ActivityType
}
