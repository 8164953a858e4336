package core_test

import (
	"bytes"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// typeCheck type-checks a program's main function body against the
// package as built, and returns the type checker's errors.
func typeCheck(t *testing.T, exports map[string]string, body string) error {
	t.Helper()
	src := `package main

import (
	"context"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

var (
	_ = time.Second
	_ = agui.NewInput
)

func main() {
	ctx := context.Background()
	a := core.AgentFunc[core.NoState](nil)
	in := agui.NewInput("t", "r")
	_, _, _ = ctx, a, in
` + body + `
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "main.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok {
			return nil, os.ErrNotExist
		}
		return os.Open(file)
	})
	var errs []string
	conf := types.Config{Importer: imp, Error: func(err error) { errs = append(errs, err.Error()) }}
	if _, err := conf.Check("main", fset, []*ast.File{f}, nil); err == nil {
		return nil
	}
	return &typeErrors{errs}
}

type typeErrors struct{ list []string }

func (e *typeErrors) Error() string { return strings.Join(e.list, "\n") }

// exportData returns the export data files of core and everything it
// imports, built by the go command as for any build.
func exportData(t *testing.T) map[string]string {
	t.Helper()
	var stderr bytes.Buffer
	cmd := exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}}={{.Export}}", "github.com/agui-go/agui/core")
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	exports := map[string]string{}
	for line := range strings.Lines(string(out)) {
		path, file, _ := strings.Cut(strings.TrimSpace(line), "=")
		if file != "" {
			exports[path] = file
		}
	}
	return exports
}

// A handler-only option given to a run, or to a Runner, is a compile error
// naming what it lacks, not a setting silently ignored; the options runs
// and handlers share compile in both places.
func TestHandlerOptionToRunIsACompileError(t *testing.T) {
	exports := exportData(t)
	for name, body := range map[string]string{
		"Run":       `_ = core.Run(ctx, a, in, core.WithHeartbeat(time.Second))`,
		"NewRunner": `_, _ = core.NewRunner(a, in, core.WithGate(nil))`,
		"Serve":     `var h *core.Handler[core.NoState]; h.Serve(nil, nil, core.WithMaxBodyBytes(1))`,
		"principal": `_ = core.Run(ctx, a, in, core.WithPrincipal(nil))`,
	} {
		err := typeCheck(t, exports, body)
		if err == nil {
			t.Errorf("%s: a handler-only option compiled", name)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, "does not implement core.RunOption (missing method applyRun)") {
			t.Errorf("%s: error %q does not name the missing run method", name, msg)
		}
	}
	shared := `
	opts := []core.Option{core.WithQueueSize(8), core.WithTransformers(), core.WithLogger(nil), core.WithRunTimeout(time.Minute)}
	_ = core.Run(ctx, a, in, opts[0], opts[1], opts[2], opts[3])
	_, _ = core.NewRunner(a, in, core.WithQueueSize(8))
	_, _ = core.NewHandler(a, opts[0], opts[1], opts[2], opts[3], core.WithHeartbeat(time.Second))
	_, _ = core.NewInputReader(core.WithQueueSize(8), core.WithMaxBodyBytes(1))
	var h *core.Handler[core.NoState]
	h.Serve(nil, nil, core.WithTransformers())
`
	if err := typeCheck(t, exports, shared); err != nil {
		t.Errorf("shared options do not compile in both places:\n%v", err)
	}
}
