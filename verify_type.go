//go:build !agui_noverify

package agui

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
