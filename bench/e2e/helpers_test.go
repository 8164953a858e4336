package e2e_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/agui-go/agui/bench/e2e"
	"github.com/agui-go/agui/internal/sharedtest"
)

// launcher starts the Go servers as this test binary (see TestMain) and the
// Node server from its directory.
func launcher(deltas int) e2e.Launcher {
	self := func(args ...string) *exec.Cmd {
		c := exec.Command(os.Args[0], "-test.run=^$")
		c.Env = append(os.Environ(), serveEnv+"="+strings.Join(args, " "))
		return c
	}
	return e2e.NewLauncher(self, e2e.NodeDir(), deltas)
}

// needNode skips the test when node is not on PATH, or fails it under
// CI=true, where test/all.sh runs with Node.js.
func needNode(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		sharedtest.Missing(t, "node is not on PATH: the Node server (@ag-ui/encoder on node:http) needs Node.js 20 or later")
	}
}

// start starts the named server process for the test's lifetime.
func start(t *testing.T, name string, deltas int) *e2e.Process {
	t.Helper()
	cmd, err := launcher(deltas)(name)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	p, err := e2e.Start(ctx, name, cmd, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := p.Stop(); err != nil {
			t.Errorf("stopping %s: %v", name, err)
		}
	})
	return p
}
