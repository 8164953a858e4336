package readme

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/agui-go/agui"

// row is one row of docs/DESIGN.md's layout table: packages by their path
// in the module ("" is the root), the packages of ours they may import,
// and whether they may import Gin. mayImport names packages of rows above;
// anyAbove lets a row import any package above it or in it.
type row struct {
	pkgs      []string
	mayImport []string
	anyAbove  bool
	gin       bool
}

// layout is docs/DESIGN.md's table, top to bottom.
var layout = []row{
	{pkgs: []string{"internal/jsonx"}},
	{pkgs: []string{"internal/pb"}},
	{pkgs: []string{"internal/sharedtest"}},
	{pkgs: []string{"internal/redistest"}, mayImport: []string{"internal/sharedtest"}},
	{pkgs: []string{"internal/pgtest"}, mayImport: []string{"internal/sharedtest"}},
	{pkgs: []string{"internal/pgmigrate"}},
	{pkgs: []string{"internal/typecheck"}},
	{pkgs: []string{"internal/stalltest"}},
	{pkgs: []string{"internal/nodetest"}, mayImport: []string{"internal/sharedtest"}},
	{pkgs: []string{"internal/sse"}},
	{pkgs: []string{"internal/threadfixture"}},
	{pkgs: []string{""}, mayImport: []string{"internal/jsonx", "internal/pb"}},
	{pkgs: []string{"internal/jsonpatch"}, mayImport: []string{"", "internal/jsonx", "internal/pb"}},
	{pkgs: []string{"client"}, mayImport: []string{"", "internal/jsonpatch"}},
	{pkgs: []string{"aguitest"}, mayImport: []string{"", "internal/jsonx", "internal/pb"}},
	{pkgs: []string{"internal/officialclient"}, mayImport: []string{"", "internal/nodetest"}},
	{pkgs: []string{"core"}, mayImport: []string{"", "internal/jsonpatch", "internal/jsonx", "internal/pb"}},
	{pkgs: []string{"resume"}, mayImport: []string{"", "core"}},
	{pkgs: []string{"resume/redislog", "resume/logtest"}, mayImport: []string{"", "aguitest", "core", "resume"}},
	{pkgs: []string{"resume/pglog"}, mayImport: []string{"", "core", "internal/pgmigrate", "resume"}},
	{pkgs: []string{"transformers"}, mayImport: []string{"", "core", "internal/jsonpatch", "internal/jsonx"}},
	{pkgs: []string{"ginagui"}, mayImport: []string{"", "core", "resume"}, gin: true},
	{pkgs: []string{"aguiprom"}, mayImport: []string{"", "core", "transformers"}},
	{pkgs: []string{"loop"}, mayImport: []string{"", "core", "internal/jsonpatch", "internal/jsonx"}},
	{pkgs: []string{"loop/openai", "loop/anthropic"}, mayImport: []string{"", "core", "internal/sse", "loop"}},
	{pkgs: []string{"loop/httptool", "loop/mcptool"}, mayImport: []string{"", "core", "loop"}},
	{pkgs: []string{"internal/transcripts"}, mayImport: []string{""}},
	{pkgs: []string{"loop/redisstore"}, mayImport: []string{"", "core", "internal/transcripts", "loop"}},
	{pkgs: []string{"loop/storetest"}, mayImport: []string{"", "core", "loop"}},
	{pkgs: []string{"loop/pgstore"}, mayImport: []string{"", "core", "internal/pgmigrate", "internal/transcripts", "loop"}},
	{pkgs: []string{"loop/a2ui"}, mayImport: []string{"", "core", "loop"}},
	{pkgs: []string{"aguiotel"}, mayImport: []string{"", "core", "loop"}},
	{pkgs: []string{"remote"}, mayImport: []string{"", "client", "core", "loop"}},
	{pkgs: []string{"examples/internal/model"}, mayImport: []string{"loop", "loop/openai", "loop/anthropic"}},
	{pkgs: []string{"examples/gin-app", "examples/dojo"}, anyAbove: true, gin: true},
	{pkgs: []string{
		"test/codes", "test/conformance", "test/dojo", "test/faults", "test/inputfuzz",
		"test/load", "test/load/cmd/agui-cost", "test/load/cmd/agui-load", "test/nodeserver", "test/protonode",
		"test/readme", "test/replicas", "test/stateclient", "test/xformclient",
	}, anyAbove: true, gin: true},
}

// imports maps each package of the module, by its path in the module, to
// the packages it imports outside its tests, as the go command resolves
// them.
func imports(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), "go", "list", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", module+"/...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	got := map[string][]string{}
	for line := range strings.Lines(string(out)) {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		got[rel(f[0])] = f[1:]
	}
	return got
}

// rel is the path of a package of ours in the module ("" for the root).
func rel(importPath string) string {
	return strings.TrimPrefix(strings.TrimPrefix(importPath, module), "/")
}

func name(pkg string) string {
	if pkg == "" {
		return "agui (the module root)"
	}
	return pkg
}

// TestDependencyRule holds the code to docs/DESIGN.md's layout: every
// package of the module is in exactly one row, every row's package exists,
// a row may import only what it names (or, for the app and the tests,
// anything above it), only ginagui, the example app and the tests import
// Gin, and the rule itself points one way, up the table.
func TestDependencyRule(t *testing.T) {
	actual := imports(t)
	rowOf := map[string]int{}
	for i, r := range layout {
		for _, p := range r.pkgs {
			if _, dup := rowOf[p]; dup {
				t.Errorf("%s is in two rows of the layout", name(p))
			}
			rowOf[p] = i
		}
	}
	for i, r := range layout {
		for _, m := range r.mayImport {
			if j, ok := rowOf[m]; !ok || j >= i {
				t.Errorf("the row of %s may import %s, which is not in a row above it", name(r.pkgs[0]), name(m))
			}
		}
		for _, p := range r.pkgs {
			if _, ok := actual[p]; !ok {
				t.Errorf("the layout names %s, which is not a package of the module: take it out of the table here and in docs/DESIGN.md", name(p))
			}
		}
	}
	for pkg, deps := range actual {
		i, ok := rowOf[pkg]
		if !ok {
			t.Errorf("%s is in no row of the layout: place it in docs/DESIGN.md's table and in layout here", name(pkg))
			continue
		}
		r := layout[i]
		for _, d := range deps {
			if strings.Contains(d, "github.com/gin-gonic/") {
				if !r.gin {
					t.Errorf("%s imports %s: no web framework below ginagui", name(pkg), d)
				}
				continue
			}
			if d != module && !strings.HasPrefix(d, module+"/") {
				continue
			}
			dep := rel(d)
			j, known := rowOf[dep]
			allowed := slices.Contains(r.mayImport, dep) || (r.anyAbove && known && j <= i)
			if !allowed {
				t.Errorf("%s imports %s, against the dependency rule of docs/DESIGN.md", name(pkg), name(dep))
			}
		}
	}
}

// TestDesignLayoutListsEveryPackage fails when a package of the module is
// missing from docs/DESIGN.md's layout table, so the table a newcomer reads
// is the one TestDependencyRule enforces.
func TestDesignLayoutListsEveryPackage(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "docs", "DESIGN.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	start := strings.Index(text, "## Package layout and the dependency rule")
	if start < 0 {
		t.Fatal(`docs/DESIGN.md has no section "Package layout and the dependency rule"`)
	}
	section := text[start+1:]
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	named := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^\|([^|]*)\|`).FindAllStringSubmatch(section, -1) {
		for _, c := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(m[1], -1) {
			named[c[1]] = true
		}
	}
	for _, r := range layout {
		for _, p := range r.pkgs {
			key := p
			if p == "" {
				key = "agui"
			}
			if !named[key] {
				t.Errorf("docs/DESIGN.md's layout table does not list %s", name(p))
			}
		}
	}
}
