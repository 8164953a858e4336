package resume_test

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

// A resume option given to a plain route, or to a run, is a compile error
// naming what it lacks, not a setting silently ignored; resume.New takes
// them.
func TestResumeOptionToAPlainRouteIsACompileError(t *testing.T) {
	exports := resumeExports(t)
	for name, body := range map[string]string{
		"NewHandler": `_, _ = core.NewHandler(a, resume.WithDetach(time.Minute))`,
		"Run":        `_ = core.Run(ctx, a, in, resume.WithLeaseTTL(time.Second))`,
	} {
		err := typeCheckResume(t, exports, body)
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
	if err := typeCheckResume(t, exports, ok); err != nil {
		t.Errorf("resume options do not compile with resume.New:\n%v", err)
	}
}

// typeCheckResume type-checks a program's main function body against core
// and resume as built, and returns the type checker's errors.
func typeCheckResume(t *testing.T, exports map[string]string, body string) error {
	t.Helper()
	src := `package main

import (
	"context"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/resume"
)

var (
	_ = time.Second
	_ = resume.New[core.NoState]
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

// resumeExports returns the export data files of resume and everything it
// imports, built by the go command as for any build.
func resumeExports(t *testing.T) map[string]string {
	t.Helper()
	var stderr bytes.Buffer
	cmd := exec.CommandContext(t.Context(), "go", "list", "-export", "-deps", "-f", "{{.ImportPath}}={{.Export}}", "github.com/agui-go/agui/resume")
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
