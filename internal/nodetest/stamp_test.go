package nodetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/agui-go/agui/internal/sharedtest"
)

func writeLock(t *testing.T, dir, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "package-lock.json"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// node_modules is fresh exactly when it was installed from a lock file of
// the same content: a checkout or touch that only moves the lock's mtime
// does not reinstall, a changed lock does.
func TestFreshFollowsTheLockContent(t *testing.T) {
	dir := t.TempDir()
	writeLock(t, dir, `{"v":1}`)
	if fresh(dir) {
		t.Fatal("fresh without node_modules")
	}
	if err := os.Mkdir(filepath.Join(dir, "node_modules"), 0o755); err != nil {
		t.Fatal(err)
	}
	if fresh(dir) {
		t.Fatal("fresh without a stamp")
	}
	if err := writeStamp(dir); err != nil {
		t.Fatal(err)
	}
	if !fresh(dir) {
		t.Fatal("not fresh after the stamp")
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(dir, "package-lock.json"), later, later); err != nil {
		t.Fatal(err)
	}
	if !fresh(dir) {
		t.Fatal("a touched but unchanged lock file asks for a reinstall")
	}
	writeLock(t, dir, `{"v":2}`)
	if fresh(dir) {
		t.Fatal("fresh after the lock file changed")
	}
}

// The shell scripts (test/lib.sh) and the Go tests write and read the
// same stamp, so either one's install serves the other.
func TestShellAndGoShareTheStamp(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		sharedtest.Missing(t, "bash is not on PATH: this test runs test/lib.sh")
	}
	lib, err := filepath.Abs(filepath.Join("..", "..", "test", "lib.sh"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeLock(t, dir, `{"v":1}`)
	if err := os.Mkdir(filepath.Join(dir, "node_modules"), 0o755); err != nil {
		t.Fatal(err)
	}
	shell := func(fn string) error {
		return exec.Command("bash", "-c", `source "$1" && `+fn+` "$2"`, "bash", lib, dir).Run()
	}
	if shell("lock_fresh") == nil {
		t.Fatal("the shell finds node_modules fresh without a stamp")
	}
	if err := writeStamp(dir); err != nil {
		t.Fatal(err)
	}
	if err := shell("lock_fresh"); err != nil {
		t.Fatalf("the shell does not accept the Go stamp: %v", err)
	}
	writeLock(t, dir, `{"v":2}`)
	if err := shell("lock_stamp"); err != nil {
		t.Fatal(err)
	}
	if !fresh(dir) {
		t.Fatal("Go does not accept the shell's stamp")
	}
}
