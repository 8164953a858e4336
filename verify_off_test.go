//go:build agui_noverify

package agui

import (
	"testing"
	"unsafe"
)

// With agui_noverify the verifier is a zero-size type that accepts any
// stream, however broken.
func TestVerifierCompiledOut(t *testing.T) {
	if size := unsafe.Sizeof(Verifier{}); size != 0 {
		t.Errorf("unsafe.Sizeof(Verifier{}) = %d, want 0", size)
	}
	v := NewVerifier()
	for _, ev := range []Event{
		&TextMessageContent{MessageID: "never-started"},
		&RunFinished{},
		&RunFinished{},
		&SubagentFinished{SubagentRunID: "nobody"},
	} {
		if err := v.Observe(ev); err != nil {
			t.Errorf("%s: %v, want nil", ev.Type(), err)
		}
	}
}
