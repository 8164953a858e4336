package sharedtest

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// childEnv names the helper a child test process calls (see
// TestHelperChild): "path", "optional" or "missing".
const childEnv = "SHAREDTEST_CHILD"

// TestHelperChild is not a test of its own: the tests below run the test
// binary again with childEnv set, and this calls the helper it names on a
// file that does not exist, so they can see how a real *testing.T ends.
func TestHelperChild(t *testing.T) {
	switch os.Getenv(childEnv) {
	case "path":
		Path(t, "fixtures/no-such-fixture.json")
		t.Log("after Path")
	case "optional":
		if _, ok := Optional(t, "fixtures/no-such-fixture.json"); ok {
			t.Fatal("Optional found a file that does not exist")
		}
		t.Log("after Optional")
	case "missing":
		Missing(t, "frobnicator is not on PATH")
		t.Log("after Missing")
	}
}

// child runs TestHelperChild with childEnv=helper and CI=ci (unset when
// empty), and returns its output and whether it exited with success.
func child(t *testing.T, helper, ci string) (string, bool) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), exe, "-test.run=^TestHelperChild$", "-test.v", "-test.count=1")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CI=") && !strings.HasPrefix(kv, childEnv+"=") && !strings.HasPrefix(kv, "GORACE=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	// The race detector's exit pause (a second by default) is of no use
	// to a child whose output is all the test reads.
	cmd.Env = append(cmd.Env, childEnv+"="+helper, "GORACE=atexit_sleep_ms=0")
	if ci != "" {
		cmd.Env = append(cmd.Env, "CI="+ci)
	}
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("run %s: %v", exe, err)
	}
	return string(out), err == nil
}

// TestMissingFailsUnderCI: with CI=true each helper fails the test when
// what it looks for is absent, and stops it there.
func TestMissingFailsUnderCI(t *testing.T) {
	for _, helper := range []string{"path", "optional", "missing"} {
		t.Run(helper, func(t *testing.T) {
			out, ok := child(t, helper, "true")
			if ok || !strings.Contains(out, "--- FAIL: TestHelperChild") || !strings.Contains(out, "CI=true") {
				t.Fatalf("under CI=true the child did not fail (success %v):\n%s", ok, out)
			}
			if strings.Contains(out, "after ") {
				t.Errorf("the child went on after the failure:\n%s", out)
			}
		})
	}
}

// TestMissingSkipsOutsideCI: without CI=true (unset, or another value)
// Path and Missing skip the test, and Optional lets it go on.
func TestMissingSkipsOutsideCI(t *testing.T) {
	for _, ci := range []string{"", "false"} {
		for _, helper := range []string{"path", "missing"} {
			t.Run(helper+"/CI="+ci, func(t *testing.T) {
				out, ok := child(t, helper, ci)
				if !ok || !strings.Contains(out, "--- SKIP: TestHelperChild") || strings.Contains(out, "after ") {
					t.Fatalf("the child did not skip (success %v):\n%s", ok, out)
				}
			})
		}
		t.Run("optional/CI="+ci, func(t *testing.T) {
			out, ok := child(t, "optional", ci)
			if !ok || !strings.Contains(out, "--- PASS: TestHelperChild") || !strings.Contains(out, "after Optional") {
				t.Fatalf("the child did not go on without the file (success %v):\n%s", ok, out)
			}
		})
	}
}

// TestPathWalksUp finds shared/ beside an ancestor of the working
// directory, as a package two folders down in a clone finds ../shared.
func TestPathWalksUp(t *testing.T) {
	root := t.TempDir()
	want := filepath.Join(root, "shared", "fixtures", "f.json")
	if err := os.MkdirAll(filepath.Dir(want), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(want, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	pkg := filepath.Join(root, "repo", "test", "pkg")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(pkg)
	if got := Path(t, "fixtures/f.json"); got != want {
		t.Errorf("Path = %s, want %s", got, want)
	}
	if got, ok := Optional(t, "fixtures/f.json"); !ok || got != want {
		t.Errorf("Optional = %s, %v, want %s, true", got, ok, want)
	}
}
