package inputfuzz_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestFuzzTargetsAvoidGin keeps every fuzz target in a package whose test
// binary does not import Gin: go test -fuzz instruments every package of
// the binary, and Gin's tree costs minutes of instrumented build per
// target on a small machine.
func TestFuzzTargetsAvoidGin(t *testing.T) {
	if testing.Short() {
		t.Skip("lists the module's packages")
	}
	root := filepath.Join("..", "..")
	decl := regexp.MustCompile(`(?m)^func Fuzz[A-Za-z0-9_]*\(`)
	dirs := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (d.Name() == "node_modules" || d.Name() == "bench" || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if decl.Match(src) {
			dirs["./"+filepath.ToSlash(filepath.Dir(must(filepath.Rel(root, path))))] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) == 0 {
		t.Fatal("no fuzz targets found")
	}
	for dir := range dirs {
		cmd := exec.Command("go", "list", "-test", "-deps", dir)
		cmd.Dir = root
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list %s: %v", dir, err)
		}
		if strings.Contains(string(out), "github.com/gin-gonic/gin\n") {
			t.Errorf("%s has fuzz targets and its tests import Gin: move the targets to a package without it", dir)
		}
	}
}

func must(s string, err error) string {
	if err != nil {
		panic(err)
	}
	return s
}
