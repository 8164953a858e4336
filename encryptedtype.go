package agui

// This file removes what AG-UI 1.1 added, encryptedValueType beside every
// encryptedValue, for a client older than 1.1; verify_type.go checks that
// a type never travels without its value.

// Downgrade10 returns ev as a client of AG-UI 1.0 reads it: without the
// encryptedValueType that 1.1 added beside each encryptedValue (on
// REASONING_ENCRYPTED_VALUE, and on the messages and tool calls of
// MESSAGES_SNAPSHOT and RUN_STARTED's input). The value stays: a value
// without a type is what every 1.0 producer sends. Such a client would
// strip the field itself and warn, so a server that has served it 1.0
// strips it first; [Downgrade] does the same for a pre-1.0 client.
//
// Downgrade10 returns ev itself when it carries no type, and otherwise a
// copy, sharing with ev only what it leaves unchanged; it never modifies
// ev.
func Downgrade10(ev Event) Event {
	switch e := ev.(type) {
	case *ReasoningEncryptedValue:
		if e.EncryptedValueType != "" {
			cp := *e
			cp.EncryptedValueType = ""
			return &cp
		}
	case *MessagesSnapshot:
		if msgs, changed := untypedMessages(e.Messages); changed {
			cp := *e
			cp.Messages = msgs
			return &cp
		}
	case *RunStarted:
		if e.Input == nil {
			break
		}
		if msgs, changed := untypedMessages(e.Input.Messages); changed {
			in := *e.Input
			in.Messages = msgs
			cp := *e
			cp.Input = &in
			return &cp
		}
	}
	return ev
}

// untypedMessages returns ms without encryptedValueType: ms itself when
// none carries one, and otherwise a new slice in which only the messages
// that did are copies.
func untypedMessages(ms []Message) ([]Message, bool) {
	var out []Message
	for i, m := range ms {
		nm := untypedMessage(m)
		if nm == m && out == nil {
			continue
		}
		if out == nil {
			out = make([]Message, len(ms))
			copy(out, ms)
		}
		out[i] = nm
	}
	if out == nil {
		return ms, false
	}
	return out, true
}

// untypedMessage returns m, or a copy of it without encryptedValueType on
// it and its tool calls.
func untypedMessage(m Message) Message {
	switch m := m.(type) {
	case *DeveloperMessage:
		if m.EncryptedValueType != "" {
			cp := *m
			cp.EncryptedValueType = ""
			return &cp
		}
	case *SystemMessage:
		if m.EncryptedValueType != "" {
			cp := *m
			cp.EncryptedValueType = ""
			return &cp
		}
	case *UserMessage:
		if m.EncryptedValueType != "" {
			cp := *m
			cp.EncryptedValueType = ""
			return &cp
		}
	case *ToolMessage:
		if m.EncryptedValueType != "" {
			cp := *m
			cp.EncryptedValueType = ""
			return &cp
		}
	case *ReasoningMessage:
		if m.EncryptedValueType != "" {
			cp := *m
			cp.EncryptedValueType = ""
			return &cp
		}
	case *AssistantMessage:
		typedCall := false
		for _, tc := range m.ToolCalls {
			typedCall = typedCall || tc.EncryptedValueType != ""
		}
		if m.EncryptedValueType == "" && !typedCall {
			return m
		}
		cp := *m
		cp.EncryptedValueType = ""
		if typedCall {
			cp.ToolCalls = make([]ToolCall, len(m.ToolCalls))
			for i, tc := range m.ToolCalls {
				tc.EncryptedValueType = ""
				cp.ToolCalls[i] = tc
			}
		}
		return &cp
	}
	return m
}
