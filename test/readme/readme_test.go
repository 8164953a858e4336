package readme

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestREADMENamesRealTests fails when the README or a chapter of docs/
// cites a Test, Example, Fuzz or Benchmark function that no _test.go file
// in the repository declares, so a renamed or deleted test cannot leave a
// claim unbacked.
func TestREADMENamesRealTests(t *testing.T) {
	docs, err := documents()
	if err != nil {
		t.Fatal(err)
	}
	declared := map[string]bool{}
	decl := regexp.MustCompile(`(?m)^func ((?:Test|Example|Fuzz|Benchmark)[A-Za-z0-9_]*)\(`)
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range decl.FindAllStringSubmatch(string(src), -1) {
			declared[m[1]] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	cite := regexp.MustCompile("`((?:Test|Example|Fuzz|Benchmark)[A-Za-z0-9_]*)`")
	total := 0
	for _, doc := range docs {
		cited := cite.FindAllStringSubmatch(doc.text, -1)
		total += len(cited)
		for _, c := range cited {
			if !declared[c[1]] {
				t.Errorf("%s cites %s, which no test file declares", doc.path, c[1])
			}
		}
	}
	if total == 0 {
		t.Fatal("the documents cite no tests")
	}
}
