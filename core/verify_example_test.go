//go:build !agui_noverify

package core_test

import (
	"errors"
	"fmt"

	"github.com/agui-go/agui/core"
)

// Content for a message that was never started is rejected where it is
// emitted, with the rule it breaks and the PROTOCOL_VIOLATION code.
func ExampleVerifier() {
	v := core.NewVerifier()
	if err := v.Observe(&core.RunStarted{ThreadID: "t", RunID: "r"}); err != nil {
		panic(err)
	}

	err := v.Observe(&core.TextMessageContent{MessageID: "msg-1", Delta: "hello"})

	var failure *core.VerificationError
	if !errors.As(err, &failure) {
		panic("expected a verification failure")
	}
	fmt.Println(failure.Rule)
	fmt.Println(core.CodeOf(err))
	// Output:
	// not-open
	// PROTOCOL_VIOLATION
}
