//go:build !agui_noverify

package core_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// The verifier sample: content for a message that was never
// started is rejected by the emit that sends it, and the agent can see
// which rule it broke.
func ExampleEmitter_Emit() {
	agent := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		err := rc.Emit(&agui.TextMessageContent{MessageID: "msg-1", Delta: "hello"})
		var failure *agui.VerificationError
		if errors.As(err, &failure) {
			fmt.Println(failure.Rule)
			fmt.Println(agui.CodeOf(err))
		}
		return agui.Outcome{}, err
	})
	for ev := range core.Run(context.Background(), agent, agui.NewInput("t", "r")) {
		if e, ok := ev.(*agui.RunError); ok {
			fmt.Println(e.Type(), e.Code)
		}
	}
	// Output:
	// not-open
	// PROTOCOL_VIOLATION
	// RUN_ERROR PROTOCOL_VIOLATION
}
