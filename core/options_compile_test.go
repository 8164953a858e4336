package core_test

import (
	"strings"
	"testing"

	"github.com/agui-go/agui/internal/typecheck"
)

// A handler-only option (or a Start option) given to a run, or to a Runner, is a compile error
// naming what it lacks, not a setting silently ignored; the options runs
// and handlers share compile in both places.
func TestHandlerOptionToRunIsACompileError(t *testing.T) {
	c := typecheck.New(t, "github.com/agui-go/agui/core")
	for name, body := range map[string]string{
		"Run":       `_ = core.Run(ctx, a, in, core.WithHeartbeat(time.Second))`,
		"NewRunner": `_, _ = core.NewRunner(a, in, core.WithGate(nil))`,
		"Serve":     `var h *core.Handler[core.NoState]; h.Serve(nil, nil, core.WithMaxBodyBytes(1))`,
		"principal": `_ = core.Run(ctx, a, in, core.WithPrincipal(nil))`,
		"start":     `_ = core.Run(ctx, a, in, core.DeliverKeepsNothing())`,
	} {
		err := c.Main(body)
		if err == nil {
			t.Errorf("%s: a handler-only option compiled", name)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, "does not implement core.RunOption (missing method applyRun)") {
			t.Errorf("%s: error %q does not name the missing run method", name, msg)
		}
	}
	shared := `
	opts := []core.Option{core.WithQueueSize(8), core.WithTransformers(), core.WithLogger(nil), core.WithRunTimeout(time.Minute)}
	_ = core.Run(ctx, a, in, opts[0], opts[1], opts[2], opts[3])
	_, _ = core.NewRunner(a, in, core.WithQueueSize(8))
	_, _ = core.NewHandler(a, opts[0], opts[1], opts[2], opts[3], core.WithHeartbeat(time.Second))
	_, _ = core.NewInputReader(core.WithQueueSize(8), core.WithMaxBodyBytes(1))
	var h *core.Handler[core.NoState]
	h.Serve(nil, nil, core.WithTransformers())
`
	if err := c.Main(shared); err != nil {
		t.Errorf("shared options do not compile in both places:\n%v", err)
	}
}
