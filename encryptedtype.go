package agui

// This file holds what AG-UI 1.1 added, encryptedValueType beside every
// encryptedValue: the check that a type never travels without its value,
// and its removal for a client older than 1.1.

// typeWithoutValue finds an encryptedValueType without an encryptedValue in
// ev: on REASONING_ENCRYPTED_VALUE, on a message of MESSAGES_SNAPSHOT or
// RUN_STARTED's input, or on one of their tool calls. It returns the id of
// the entity that carries it and what that entity is, or ok false.
func typeWithoutValue(ev Event) (id, what string, ok bool) {
	switch e := ev.(type) {
	case *ReasoningEncryptedValue:
		if e.EncryptedValueType != "" && e.EncryptedValue == "" {
			kind := kindMessage
			if e.Subtype == EncryptedToolCall {
				kind = kindToolCall
			}
			return e.EntityID, "the encrypted value of " + named(kind, e.EntityID), true
		}
	case *MessagesSnapshot:
		return messageTypeWithoutValue(e.Messages)
	case *RunStarted:
		if e.Input != nil {
			return messageTypeWithoutValue(e.Input.Messages)
		}
	}
	return "", "", false
}

func messageTypeWithoutValue(ms []Message) (id, what string, ok bool) {
	for _, m := range ms {
		value, typ := encrypted(m)
		if typ != "" && value == "" {
			return m.MessageID(), named(kindMessage, m.MessageID()), true
		}
		if a, isAssistant := m.(*AssistantMessage); isAssistant {
			for _, tc := range a.ToolCalls {
				if tc.EncryptedValueType != "" && tc.EncryptedValue == "" {
					return tc.ID, named(kindToolCall, tc.ID), true
				}
			}
		}
	}
	return "", "", false
}

// encrypted returns m's encryptedValue and encryptedValueType.
func encrypted(m Message) (value, typ string) {
	switch m := m.(type) {
	case *DeveloperMessage:
		return m.EncryptedValue, m.EncryptedValueType
	case *SystemMessage:
		return m.EncryptedValue, m.EncryptedValueType
	case *AssistantMessage:
		return m.EncryptedValue, m.EncryptedValueType
	case *UserMessage:
		return m.EncryptedValue, m.EncryptedValueType
	case *ToolMessage:
		return m.EncryptedValue, m.EncryptedValueType
	case *ReasoningMessage:
		return m.EncryptedValue, m.EncryptedValueType
	}
	return "", ""
}

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
