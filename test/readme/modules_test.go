package readme

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The frameworks live in modules of their own (integrations/*), so that a
// service which imports only the main module never has one in its go.sum:
// the main module's build list names none of them, and the README's
// package table names every integration module.
func TestFrameworksStayOutOfTheMainModule(t *testing.T) {
	cmd := exec.CommandContext(t.Context(), "go", "list", "-m", "all")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -m all: %v", err)
	}
	for _, framework := range []string{"github.com/cloudwego/eino", "github.com/tmc/langchaingo", "github.com/firebase/genkit"} {
		for line := range strings.Lines(string(out)) {
			if strings.HasPrefix(line, framework) {
				t.Errorf("the main module's build list names %s", strings.TrimSpace(line))
			}
		}
	}
	mods, err := filepath.Glob(filepath.Join(root, "integrations", "*", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if len(mods) == 0 {
		t.Fatal("no module under integrations/")
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, mod := range mods {
		dir := "integrations/" + filepath.Base(filepath.Dir(mod))
		if !strings.Contains(string(readme), "`"+dir+"`") {
			t.Errorf("the README's package table does not name the module %s", dir)
		}
	}
}
