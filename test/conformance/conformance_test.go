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

	"github.com/agui-go/agui/internal/nodetest"
)

func TestOfficialClient(t *testing.T) {
	node := nodetest.Node(t, ".")
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()

	// Build the example app once for every test file, unless test/all.sh
	// built it for every package (AGUI_APP_BIN).
	bin := os.Getenv("AGUI_APP_BIN")
	if bin == "" {
		bin = filepath.Join(t.TempDir(), "gin-app")
		args := []string{"build", "-o", bin}
		if raceEnabled {
			args = append(args, "-race")
		}
		if out, err := exec.CommandContext(ctx, "go", append(args, "../../examples/gin-app")...).CombinedOutput(); err != nil {
			t.Fatalf("go build ./examples/gin-app: %v\n%s", err, out)
		}
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
