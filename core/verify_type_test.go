//go:build !agui_noverify

package core_test

import (
	"context"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// TestTypeWithoutValueEndsTheRun: the verifier refuses an encryptedValueType
// without its value, and the run ends with RUN_ERROR of that code.
func TestTypeWithoutValueEndsTheRun(t *testing.T) {
	a := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		err := rc.Emit(&agui.ReasoningEncryptedValue{Subtype: agui.EncryptedMessage, EntityID: "r-1", EncryptedValueType: "acme.x"})
		if agui.CodeOf(err) != agui.CodeTypeWithoutValue {
			t.Errorf("Emit: %v, want code %s", err, agui.CodeTypeWithoutValue)
		}
		return agui.Outcome{}, err
	})
	in := agui.NewInput("t", "r")
	in.ProtocolVersion = agui.LatestProtocolVersion
	var last agui.Event
	for ev, err := range core.Run(t.Context(), a, in) {
		if err != nil {
			t.Fatal(err)
		}
		last = ev
	}
	if re, ok := last.(*agui.RunError); !ok || re.Code != string(agui.CodeTypeWithoutValue) {
		t.Errorf("the run ended with %#v, want RUN_ERROR %s", last, agui.CodeTypeWithoutValue)
	}
}
