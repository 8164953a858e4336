package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestInstalledComparesTheLockFiles checks when NodeCommand would run
// npm ci: node_modules missing, or older than package-lock.json.
func TestInstalledComparesTheLockFiles(t *testing.T) {
	dir := t.TempDir()
	lock := filepath.Join(dir, "package-lock.json")
	installedLock := filepath.Join(dir, "node_modules", ".package-lock.json")
	if installed(dir) {
		t.Fatal("installed without a lock file")
	}
	if err := os.WriteFile(lock, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if installed(dir) {
		t.Fatal("installed without node_modules")
	}
	if err := os.MkdirAll(filepath.Dir(installedLock), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(installedLock, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if err := os.Chtimes(installedLock, now, now); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(lock, now.Add(-time.Hour), now.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	if !installed(dir) {
		t.Fatal("not installed though node_modules is newer than the lock file")
	}
	if err := os.Chtimes(lock, now.Add(time.Hour), now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if installed(dir) {
		t.Fatal("installed though the lock file changed since")
	}
}
