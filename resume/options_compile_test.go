package resume_test

import (
	"strings"
	"testing"

	"github.com/agui-go/agui/internal/typecheck"
)

// A resume option given to a plain route, or to a run, is a compile error
// naming what it lacks, not a setting silently ignored; resume.New takes
// them.
func TestResumeOptionToAPlainRouteIsACompileError(t *testing.T) {
	c := typecheck.New(t, "github.com/agui-go/agui/core", "github.com/agui-go/agui/resume")
	for name, body := range map[string]string{
		"NewHandler": `_, _ = core.NewHandler(a, resume.WithDetach(time.Minute))`,
		"Run":        `_ = core.Run(ctx, a, in, resume.WithLeaseTTL(time.Second))`,
	} {
		err := c.Main(body)
		if err == nil {
			t.Errorf("%s: a resume option compiled", name)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, "does not implement core.") {
			t.Errorf("%s: error %q does not name the option interface", name, msg)
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
