// Package sharedtest is how tests find what lives outside the repository:
// the cross-SDK fixtures (test data in a shared/ folder, which CI checks
// out beside the clone) and programs on PATH. A test without what it needs skips on a developer's machine
// and fails when the CI environment variable is "true", so a check that
// CI is meant to run can never pass there by not running.
package sharedtest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// Missing ends t because something it needs is absent: it fails t when
// CI is "true" and skips it otherwise. why says what is missing and how
// to get it.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	why := fmt.Sprintf(format, args...)
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s (CI=true: a missing requirement is a failure, not a skip)", why)
	}
	t.Skipf("%s (CI is not \"true\": skipping)", why)
}

// Path returns the path of shared/rel (rel in slash form, such as
// "fixtures/null-omission.json"), looked for in the working directory
// and each of its parents, so a test finds it from any package of any
// module of the repository. When it is absent, Path ends t as [Missing]
// does.
func Path(t testing.TB, rel string) string {
	t.Helper()
	p, ok := lookup(t, rel)
	if !ok {
		Missing(t, "%s", absent(rel))
	}
	return p
}

// Optional is [Path] for a test that still has work without the file: it
// returns false, with a log line, when shared/rel is absent, and fails t
// as Path does when CI is "true".
func Optional(t testing.TB, rel string) (string, bool) {
	t.Helper()
	p, ok := lookup(t, rel)
	if ok {
		return p, true
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s (CI=true: a missing requirement is a failure, not a skip)", absent(rel))
	}
	t.Logf("%s; going on without it", absent(rel))
	return "", false
}

// lookup looks for shared/rel in the working directory and its parents.
// An error other than absence (a permission problem, say) fails t: it is
// no reason to skip.
func lookup(t testing.TB, rel string) (string, bool) {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join("shared", filepath.FromSlash(rel))
	for dir := wd; ; dir = filepath.Dir(dir) {
		p := filepath.Join(dir, name)
		_, err := os.Stat(p)
		if err == nil {
			return p, true
		}
		if !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
		if filepath.Dir(dir) == dir {
			return "", false
		}
	}
}

// absent says why shared/rel was not found.
func absent(rel string) string {
	return "shared/" + rel + " is in no parent of the working directory: it ships with the shared requirements, which CI keeps beside the clone (../shared)"
}
