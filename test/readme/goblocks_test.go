package readme

import (
	"fmt"
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

// TestREADMEGoBlocksCompile builds every Go block of the README as a
// complete program, so that what a newcomer copies compiles: each block
// is written to its own directory inside the module (named with a leading
// underscore, so ./... never picks up one a crashed run left behind) and
// all are type-checked by one go vet, which compiles them as go build
// would without linking four binaries.
func TestREADMEGoBlocksCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	root := filepath.Join("..", "..")
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := goBlocks(string(readme))
	if len(blocks) < 4 {
		t.Fatalf("the README has %d Go blocks, want at least 4", len(blocks))
	}
	dir, err := os.MkdirTemp(".", "_blocks-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	var pkgs []string
	for i, b := range blocks {
		if !strings.HasPrefix(b, "package main\n") {
			t.Errorf("README Go block %d is not a complete program (package main first):\n%s", i+1, b)
			continue
		}
		d := filepath.Join(dir, fmt.Sprintf("block%d", i+1))
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "main.go"), []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, "./"+filepath.ToSlash(d))
	}
	if len(pkgs) == 0 {
		return
	}
	// go vet type-checks each program as the compiler does (and vets it)
	// without linking four binaries.
	cmd := exec.Command("go", append([]string{"vet"}, pkgs...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the README's Go blocks do not build: %v\n%s", err, out)
	}
}

func TestGoBlocks(t *testing.T) {
	got := goBlocks("x\n```go\npackage main\n```\n```sh\nls\n```\n```go\nb\n```\n")
	if len(got) != 2 || got[0] != "package main\n" || got[1] != "b\n" {
		t.Fatalf("%q", got)
	}
}
