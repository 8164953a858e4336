// Package nodetest lets Go tests run the official AG-UI JavaScript packages
// under Node.js, from a fresh clone: each test package keeps a package.json
// and a committed package-lock.json beside its tests.
package nodetest

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agui-go/agui/internal/sharedtest"
)

// installing serialises npm ci within one test binary, whose tests may ask
// for the same node_modules at the same time.
var installing sync.Mutex

// stampFile is written beside the installed packages, in node_modules,
// and holds the SHA-256 of the package-lock.json they were installed from;
// test/lib.sh writes and reads the same file.
const stampFile = ".agui-lock-sha256"

// Node returns the path of node once the test package's pinned Node
// packages are installed: it runs npm ci in the current directory (the test
// package's) unless node_modules was installed from a package-lock.json of
// the same content (see fresh). When node is not on PATH it skips the
// test, or fails it under CI=true ([sharedtest.Missing]); it fails it when
// npm is missing or npm ci fails.
func Node(t testing.TB) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		sharedtest.Missing(t, "node is not on PATH: this test runs the official AG-UI client under Node.js 20 or later")
	}
	installing.Lock()
	defer installing.Unlock()
	if fresh(".") {
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
	if err := writeStamp("."); err != nil {
		t.Fatal(err)
	}
	return node
}

// lockHash is the hex SHA-256 of dir's package-lock.json.
func lockHash(dir string) (string, error) {
	b, err := os.ReadFile(filepath.Join(dir, "package-lock.json"))
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// fresh reports whether dir's node_modules was installed from a
// package-lock.json of the content dir holds now. Content, not mtime: a
// fresh checkout or a branch switch gives the lock a new mtime without
// changing what it pins, and a reinstall costs minutes.
func fresh(dir string) bool {
	want, err := lockHash(dir)
	if err != nil {
		return false
	}
	got, err := os.ReadFile(filepath.Join(dir, "node_modules", stampFile))
	return err == nil && strings.TrimSpace(string(got)) == want
}

// writeStamp records that dir's node_modules holds what its lock pins.
func writeStamp(dir string) error {
	h, err := lockHash(dir)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "node_modules", stampFile), []byte(h+"\n"), 0o644)
}
