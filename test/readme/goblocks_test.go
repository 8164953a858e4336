package readme

import (
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// goBlocks returns the ```go blocks of markdown, in order.
func goBlocks(markdown string) []string {
	re := regexp.MustCompile("(?ms)^```go\n(.*?)^```")
	var out []string
	for _, m := range re.FindAllStringSubmatch(markdown, -1) {
		out = append(out, m[1])
	}
	return out
}

// TestREADMEGoBlocksCompile builds every Go block of the README and of
// docs/*.md as a complete program, so that what a newcomer copies compiles:
// each block is written to its own directory inside the module (named with
// a leading underscore, so ./... never picks up one a crashed run left
// behind) and all are type-checked by one go vet, which compiles them as go
// build would without linking a binary per block. A block must also be
// gofmt-formatted, as code a reader copies should be.
func TestREADMEGoBlocksCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	docs, err := documents()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(goBlocks(docs[0].text)); n < 2 {
		t.Fatalf("the README has %d Go blocks, want at least 2 (the quick start)", n)
	}
	dir, err := os.MkdirTemp(".", "_blocks-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	var pkgs []string
	for _, doc := range docs {
		for i, b := range goBlocks(doc.text) {
			if !strings.HasPrefix(b, "package main\n") {
				t.Errorf("%s: Go block %d is not a complete program (package main first):\n%s", doc.path, i+1, b)
				continue
			}
			if f, err := format.Source([]byte(b)); err == nil && string(f) != b {
				t.Errorf("%s: Go block %d is not gofmt-formatted", doc.path, i+1)
			}
			name := strings.NewReplacer("/", "_", ".", "_").Replace(doc.path)
			d := filepath.Join(dir, fmt.Sprintf("%s_block%d", name, i+1))
			if err := os.Mkdir(d, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(d, "main.go"), []byte(b), 0o644); err != nil {
				t.Fatal(err)
			}
			pkgs = append(pkgs, "./"+filepath.ToSlash(d))
		}
	}
	if len(pkgs) == 0 {
		return
	}
	// go vet type-checks each program as the compiler does (and vets it)
	// without linking a binary per block.
	cmd := exec.Command("go", append([]string{"vet"}, pkgs...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the documents' Go blocks do not build (directories are named after their file and block number): %v\n%s", err, out)
	}
}

func TestGoBlocks(t *testing.T) {
	got := goBlocks("x\n```go\npackage main\n```\n```sh\nls\n```\n```go\nb\n```\n")
	if len(got) != 2 || got[0] != "package main\n" || got[1] != "b\n" {
		t.Fatalf("%q", got)
	}
}
