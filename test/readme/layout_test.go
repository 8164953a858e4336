package readme

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/agui-go/agui"

// deps lists the packages pkg imports, directly or not, as the go command
// resolves them (tests excluded).
func deps(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.CommandContext(t.Context(), "go", "list", "-deps", "-f", "{{.ImportPath}}", pkg).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	return strings.Fields(string(out))
}

// TestDependencyRule holds the layout of docs/DESIGN.md: the protocol
// package imports no runtime, the runner imports no web framework,
// internal/jsonx imports nothing of ours, and nothing imports back up the
// list.
func TestDependencyRule(t *testing.T) {
	allowed := map[string][]string{
		module:                         {module + "/internal/pb", module + "/internal/jsonx"},
		module + "/aguitest":           {module, module + "/internal/pb", module + "/internal/jsonx"},
		module + "/internal/jsonpatch": {module, module + "/internal/pb", module + "/internal/jsonx"},
		// The generic JSON machinery knows nothing of AG-UI.
		module + "/internal/jsonx": {},
		module + "/core":           {module, module + "/internal/"},
		// Resumable runs are a client of core's transport surface.
		module + "/resume":          {module, module + "/core", module + "/internal/"},
		module + "/resume/redislog": {module, module + "/core", module + "/resume", module + "/internal/"},
		module + "/resume/logtest":  {module, module + "/core", module + "/resume", module + "/internal/"},
	}
	for pkg, ok := range allowed {
		for _, d := range deps(t, pkg) {
			if d == pkg {
				continue
			}
			if strings.Contains(d, "gin-gonic") {
				t.Errorf("%s imports %s: no web framework below ginagui", pkg, d)
			}
			if !strings.HasPrefix(d, module) {
				continue
			}
			fine := false
			for _, a := range ok {
				if d == a || (strings.HasSuffix(a, "/") && strings.HasPrefix(d, a)) {
					fine = true
				}
			}
			if !fine {
				t.Errorf("%s imports %s, against the dependency rule", pkg, d)
			}
		}
	}
}
