package typecheck

import (
	"strings"
	"testing"
)

// A well-typed program checks clean, unused imports and variables
// included; an ill-typed one returns the type checker's error.
func TestMainReportsTypeErrors(t *testing.T) {
	c := New(t, "github.com/agui-go/agui/core")
	if err := c.Main(`var unused int`); err != nil {
		t.Errorf("a well-typed program with an unused variable: %v", err)
	}
	err := c.Main(`var n int = "x"; _ = n`)
	if err == nil {
		t.Fatal("an ill-typed program checked clean")
	}
	if !strings.Contains(err.Error(), "cannot use \"x\"") {
		t.Errorf("error %q does not name the mistake", err)
	}
}

// Check reports a file that does not parse, and a package that is not
// among the ones New was given as one it cannot import.
func TestCheckReportsParseAndImportErrors(t *testing.T) {
	c := New(t, "github.com/agui-go/agui/core")
	if err := c.Check("package main\nfunc main() {"); err == nil {
		t.Error("a file that does not parse checked clean")
	}
	err := c.Check("package main\n\nimport _ \"github.com/agui-go/agui/loop\"\n\nfunc main() {}\n")
	if err == nil {
		t.Error("a package New was not given was imported")
	}
}
