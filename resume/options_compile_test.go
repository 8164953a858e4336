package resume_test

import (
	"strings"
	"testing"

	"github.com/agui-go/agui/internal/typecheck"
)

// A resume option given to a plain route (core's or ginagui's), or to a
// run, and a log's option given to the route or the route's to the log,
// are compile errors naming what they lack, not settings silently
// ignored; resume.New takes the route's options.
func TestResumeOptionToAPlainRouteIsACompileError(t *testing.T) {
	c := typecheck.New(t, "github.com/agui-go/agui/core", "github.com/agui-go/agui/resume", "github.com/agui-go/agui/ginagui")
	for name, tc := range map[string]struct{ body, want string }{
		"NewHandler": {`_, _ = core.NewHandler(a, resume.WithDetach(time.Minute))`, "does not implement core.HandlerOption"},
		"Register":   {`_ = ginagui.Register(nil, "/x", a, resume.WithDetach(time.Minute))`, "does not implement core.HandlerOption"},
		"Run":        {`_ = core.Run(ctx, a, in, resume.WithLeaseTTL(time.Second))`, "does not implement core.RunOption"},
		"New":        {`var h *core.Handler[core.NoState]; _, _ = resume.New(h, nil, resume.WithMemoryRunEvents(1))`, "as resume.Option value"},
		"MemoryLog":  {`_, _ = resume.NewMemoryLog(resume.WithRetry(time.Second))`, "as resume.MemoryLogOption value"},
	} {
		err := c.Main(tc.body)
		if err == nil {
			t.Errorf("%s: a misplaced option compiled", name)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, tc.want) {
			t.Errorf("%s: error %q does not say %q", name, msg, tc.want)
		}
	}
	ok := `
	h, _ := core.NewHandler(a, core.WithHeartbeat(time.Second))
	_, _ = resume.New(h, nil, resume.WithDetach(time.Minute), resume.WithReplicaID("a"))
`
	if err := c.Main(ok); err != nil {
		t.Errorf("resume options do not compile with resume.New:\n%v", err)
	}
}
