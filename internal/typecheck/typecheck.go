package typecheck

import (
	"bytes"
	"errors"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path"
	"strings"
	"testing"
)

// Checker type-checks programs against the export data of the packages
// given to [New] and everything they import. Its methods may be called
// from several goroutines at once: it only reads what New found.
type Checker struct {
	pkgs    []string
	exports map[string]string // import path to export data file
}

// New returns a Checker for the packages pkgs (import paths), built by
// the go command as for any build. A failure of the go command fails t.
func New(t testing.TB, pkgs ...string) *Checker {
	t.Helper()
	var stderr bytes.Buffer
	args := append([]string{"list", "-export", "-deps", "-f", "{{.ImportPath}}={{.Export}}"}, pkgs...)
	cmd := exec.CommandContext(t.Context(), "go", args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	exports := map[string]string{}
	for line := range strings.Lines(string(out)) {
		p, file, _ := strings.Cut(strings.TrimSpace(line), "=")
		if file != "" {
			exports[p] = file
		}
	}
	return &Checker{pkgs: pkgs, exports: exports}
}

// Check type-checks the file src (a whole package main) and returns the
// type checker's errors joined, or nil when the program is well typed.
// Soft errors (an unused import or variable) do not count: they say
// nothing of whether an API was used as its types allow.
func (c *Checker) Check(src string) error {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "main.go", src, 0)
	if err != nil {
		return err
	}
	imp := importer.ForCompiler(fset, "gc", func(p string) (io.ReadCloser, error) {
		file, ok := c.exports[p]
		if !ok {
			return nil, os.ErrNotExist
		}
		return os.Open(file)
	})
	var errs []error
	conf := types.Config{Importer: imp, Error: func(err error) {
		if te, ok := err.(types.Error); ok && te.Soft {
			return
		}
		errs = append(errs, err)
	}}
	_, _ = conf.Check("main", fset, []*ast.File{f}, nil)
	return errors.Join(errs...)
}

// Main type-checks a program whose main function is body, as [Check]
// does. The program imports context, time, the module root agui and the
// packages given to [New] (each by its last path element), and body
// starts with three variables in scope: ctx (a context.Context), a (a
// core.AgentFunc[core.NoState]) and in (an *agui.RunAgentInput), so New must have
// been given the core package.
func (c *Checker) Main(body string) error {
	var b strings.Builder
	b.WriteString("package main\n\nimport (\n\t\"context\"\n\t\"time\"\n\n\t\"github.com/agui-go/agui\"\n")
	for _, p := range c.pkgs {
		b.WriteString("\t" + path.Base(p) + " \"" + p + "\"\n")
	}
	b.WriteString(`)

func main() {
	ctx := context.Background()
	a := core.AgentFunc[core.NoState](nil)
	in := agui.NewInput("t", "r")
	_ = time.Second
`)
	b.WriteString(body)
	b.WriteString("\n}\n")
	return c.Check(b.String())
}
