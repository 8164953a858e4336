// Package nodetest lets Go tests run the official AG-UI JavaScript packages
// under Node.js, from a fresh clone: each test package keeps a package.json
// and a committed package-lock.json beside its tests (or names a directory
// that does, as internal/officialclient does for the integration modules).
package nodetest

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/agui-go/agui/internal/sharedtest"
)

// installing serialises npm ci within one test binary, whose tests may ask
// for the same node_modules at the same time; installLock does across the
// test binaries go test runs side by side.
var installing sync.Mutex

// stampFile is written beside the installed packages, in node_modules,
// and holds the SHA-256 of the package-lock.json they were installed from;
// test/lib.sh writes and reads the same file.
const stampFile = ".agui-lock-sha256"

// Node returns the path of node once the Node packages pinned in dir (a
// test package passes ".", its own directory) are installed: it runs npm
// ci in dir unless node_modules was installed from a package-lock.json of
// the same content (see fresh). When node is not on PATH it skips the
// test, or fails it under CI=true ([sharedtest.Missing]); it fails it when
// npm is missing or npm ci fails.
func Node(t testing.TB, dir string) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		sharedtest.Missing(t, "node is not on PATH: this test runs the official AG-UI client under Node.js 20 or later")
	}
	installing.Lock()
	defer installing.Unlock()
	unlock, err := installLock(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	if fresh(dir) {
		return node
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Fatal("node is on PATH but npm is not: npm ci installs the pinned packages")
	}
	// --ignore-scripts: no dependency needs an install script, and none
	// should run as a side effect of go test.
	cmd := exec.Command(npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
	}
	if err := writeStamp(dir); err != nil {
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

// installLock takes an exclusive lock on a file beside dir's lock file, so
// that two test binaries needing the same packages (the integration
// modules share internal/officialclient's) do not run npm ci over each
// other; the returned func releases it.
func installLock(dir string) (func(), error) {
	f, err := os.OpenFile(filepath.Join(dir, ".agui-npm-install.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil
}
