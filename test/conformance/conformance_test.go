// Package conformance_test runs the Node suite in this directory: the
// official @ag-ui/client 1.0.0 (and 0.0.58, under the alias agui-old)
// drives every route of examples/gin-app over SSE and protobuf. See
// README.md for what each *.test.mjs file proves.
//
// The Node dependencies are pinned by package-lock.json; the test runs
// `npm ci` itself when node_modules is missing. It skips only when node is
// not on PATH, so `go test ./...` from a fresh clone covers the suite.
package conformance_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// nodeWithModules returns node's path once the pinned packages are
// installed, running npm ci on a fresh clone. It skips the test only when
// node is not on PATH.
func nodeWithModules(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH; the conformance suite needs Node.js 20 or later")
	}
	if _, err := os.Stat(filepath.Join("node_modules", "@ag-ui", "client", "package.json")); err == nil {
		return node
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Fatal("node is on PATH but npm is not; npm ci is needed to install the pinned client")
	}
	// --ignore-scripts: no dependency needs an install script, and none
	// should run as a side effect of go test.
	out, err := exec.CommandContext(t.Context(), npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund").CombinedOutput()
	if err != nil {
		t.Fatalf("npm ci: %v\n%s", err, out)
	}
	return node
}

func TestOfficialClient(t *testing.T) {
	node := nodeWithModules(t)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()

	// Build the example app once for every test file.
	bin := filepath.Join(t.TempDir(), "gin-app")
	args := []string{"build", "-o", bin}
	if raceEnabled {
		args = append(args, "-race")
	}
	if out, err := exec.CommandContext(ctx, "go", append(args, "../../examples/gin-app")...).CombinedOutput(); err != nil {
		t.Fatalf("go build ./examples/gin-app: %v\n%s", err, out)
	}

	files, err := filepath.Glob("*.test.mjs")
	if err != nil || len(files) == 0 {
		t.Fatalf("no *.test.mjs files (%v)", err)
	}
	cmd := exec.CommandContext(ctx, node, append([]string{"--test", "--test-reporter=spec"}, files...)...)
	cmd.Env = append(os.Environ(), "AGUI_APP_BIN="+bin)
	out, err := cmd.CombinedOutput()
	t.Logf("node --test:\n%s", out)
	if err != nil {
		t.Fatalf("node --test: %v", err)
	}
}
