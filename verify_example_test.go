//go:build !agui_noverify

package agui_test

import (
	"errors"
	"fmt"

	"github.com/agui-go/agui"
)

// Content for a message that was never started is rejected where it is
// emitted, with the rule it breaks and the PROTOCOL_VIOLATION code.
func ExampleVerifier() {
	v := agui.NewVerifier()
	if err := v.Observe(&agui.RunStarted{ThreadID: "t", RunID: "r"}); err != nil {
		panic(err)
	}

	err := v.Observe(&agui.TextMessageContent{MessageID: "msg-1", Delta: "hello"})

	var failure *agui.VerificationError
	if !errors.As(err, &failure) {
		panic("expected a verification failure")
	}
	fmt.Println(failure.Rule)
	fmt.Println(agui.CodeOf(err))
	// Output:
	// not-open
	// PROTOCOL_VIOLATION
}
