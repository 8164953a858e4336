package agui

import "testing"

func TestInputError(t *testing.T) {
	tests := []struct {
		err  *InputError
		msg  string
		code Code
	}{
		{&InputError{Field: "messages[2].role", Reason: `unknown role "robot"`}, `messages[2].role: unknown role "robot"`, CodeProtocol},
		{&InputError{Reason: "invalid JSON", Malformed: true}, "invalid JSON", CodeSerialization},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.msg {
			t.Errorf("Error() = %q, want %q", got, tt.msg)
		}
		if got := tt.err.Code(); got != tt.code {
			t.Errorf("Code() = %q, want %q", got, tt.code)
		}
	}
}
