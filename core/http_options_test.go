package core_test

import (
	"context"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

func TestNewHandlerRejectsBadOptions(t *testing.T) {
	t.Parallel()
	a := core.AgentFunc[core.NoState](func(context.Context, *core.RunContext[core.NoState]) (agui.Outcome, error) {
		return agui.Success(), nil
	})
	for name, opt := range map[string]core.HandlerOption{
		"body":      core.WithMaxBodyBytes(0),
		"heartbeat": core.WithHeartbeat(-1),
		"timeout":   core.WithWriteTimeout(-1),
		"queue":     core.WithQueueSize(-1),
	} {
		if _, err := core.NewHandler(a, opt); err == nil {
			t.Errorf("%s: NewHandler accepted an invalid option", name)
		}
	}
	if _, err := core.NewHandler[core.NoState](nil); err == nil {
		t.Error("NewHandler accepted a nil agent")
	}
}
