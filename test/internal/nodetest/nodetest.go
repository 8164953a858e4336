// Package nodetest lets Go tests run the official AG-UI JavaScript packages
// under Node.js, from a fresh clone: each test package keeps a package.json
// and a committed package-lock.json beside its tests.
package nodetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// installing serialises npm ci within one test binary, whose tests may ask
// for the same node_modules at the same time.
var installing sync.Mutex

// Node returns the path of node once the test package's pinned Node
// packages are installed: it runs npm ci in the current directory (the test
// package's) when node_modules is missing or older than package-lock.json.
// It skips the test when node is not on PATH, and fails it when npm is
// missing or npm ci fails.
func Node(t testing.TB) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH: this test runs the official AG-UI client under Node.js 20 or later")
	}
	installing.Lock()
	defer installing.Unlock()
	if fresh() {
		return node
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Fatal("node is on PATH but npm is not: npm ci installs the pinned packages")
	}
	// --ignore-scripts: no dependency needs an install script, and none
	// should run as a side effect of go test.
	out, err := exec.Command(npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund").CombinedOutput()
	if err != nil {
		t.Fatalf("npm ci: %v\n%s", err, out)
	}
	return node
}

// fresh reports whether node_modules holds what package-lock.json pins:
// npm writes node_modules/.package-lock.json on every install.
func fresh() bool {
	lock, err := os.Stat("package-lock.json")
	if err != nil {
		return false
	}
	installed, err := os.Stat(filepath.Join("node_modules", ".package-lock.json"))
	return err == nil && !installed.ModTime().Before(lock.ModTime())
}
