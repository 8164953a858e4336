// Package dojo_test runs dojo.test.mjs: the official @ag-ui/client 1.0.0
// drives every feature of examples/dojo as the AG-UI Dojo's pages do,
// and examples/gin-app's loop route,
// with the server's model answered by aimock (@copilotkit/aimock 1.43.0)
// from the Dojo's own fixtures, read from shared/fixtures/dojo. Both
// packages are pinned by package-lock.json; the test runs npm ci itself.
// Without node or the shared fixtures it skips, and fails when CI=true.
package dojo_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/agui-go/agui/internal/nodetest"
	"github.com/agui-go/agui/internal/sharedtest"
)

func TestDojoFeatures(t *testing.T) {
	fixtures := sharedtest.Path(t, "fixtures/dojo/openai")
	image := sharedtest.Path(t, "fixtures/dojo/test-image.png")
	node := nodetest.Node(t, ".")

	// Both apps are built once here, unless test/all.sh built them for
	// every package (AGUI_DOJO_BIN, AGUI_APP_BIN). The build is bounded by
	// go test's own timeout, not the run's: on a loaded machine a race
	// build alone can take longer than the five minutes the features get.
	dojo, ginApp := os.Getenv("AGUI_DOJO_BIN"), os.Getenv("AGUI_APP_BIN")
	if dojo == "" || ginApp == "" {
		dir := t.TempDir()
		args := []string{"build", "-o", dir}
		if raceEnabled {
			args = append(args, "-race")
		}
		if out, err := exec.CommandContext(t.Context(), "go", append(args, "../../examples/dojo", "../../examples/gin-app")...).CombinedOutput(); err != nil {
			t.Fatalf("go build ./examples/dojo ./examples/gin-app: %v\n%s", err, out)
		}
		dojo, ginApp = filepath.Join(dir, "dojo"), filepath.Join(dir, "gin-app")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "--test", "--test-reporter=spec", "dojo.test.mjs")
	cmd.Env = append(os.Environ(), "DOJO_BIN="+dojo, "GINAPP_BIN="+ginApp,
		"DOJO_FIXTURES="+fixtures, "DOJO_IMAGE="+image)
	out, err := cmd.CombinedOutput()
	t.Logf("node --test:\n%s", out)
	if err != nil {
		t.Fatalf("node --test: %v", err)
	}
}
