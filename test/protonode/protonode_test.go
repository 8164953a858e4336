// Package protonode_test checks our protobuf frames against the official
// decoder: every sample event is written as a frame (core.AppendProto) and
// as JSON (AppendJSON), and decode.mjs decodes the frames with
// @ag-ui/proto@1.0.0 under Node and compares each with our JSON.
//
// The Node dependencies are pinned by package-lock.json; the test runs
// `npm ci` itself when node_modules is missing. It skips only when node or
// npm is not on PATH.
package protonode_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/test/samples"
)

func TestOfficialDecoderReadsOurFrames(t *testing.T) {
	node, npm := lookPath(t, "node"), lookPath(t, "npm")
	ensureNodeModules(t, npm)

	dir := t.TempDir()
	var frames, lines []byte
	for _, ev := range samples.Events() {
		var err error
		if frames, err = core.AppendProto(frames, ev); err != nil {
			t.Fatalf("%s: AppendProto: %v", ev.Type(), err)
		}
		if lines, err = ev.AppendJSON(lines); err != nil {
			t.Fatalf("%s: AppendJSON: %v", ev.Type(), err)
		}
		lines = append(lines, '\n')
	}
	writeFile(t, filepath.Join(dir, "stream.bin"), frames)
	writeFile(t, filepath.Join(dir, "stream.jsonl"), lines)

	out, err := run(t.Context(), node, "decode.mjs", dir)
	if err != nil {
		t.Fatalf("node decode.mjs: %v\n%s", err, out)
	}
	t.Logf("%s", bytes.TrimSpace(out))
}

func lookPath(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not on PATH; this test needs Node.js and npm to run the official decoder", name)
	}
	return p
}

// ensureNodeModules installs the locked dependencies on a fresh clone.
func ensureNodeModules(t *testing.T, npm string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join("node_modules", "@ag-ui", "proto", "package.json")); err == nil {
		return
	}
	// --ignore-scripts: nothing here needs an install script, and none
	// should run on a developer's machine as a side effect of go test.
	out, err := run(t.Context(), npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund")
	if err != nil {
		t.Fatalf("npm ci: %v\n%s", err, out)
	}
}

// run runs a command in the package directory (go test's working
// directory) and returns its combined output.
func run(ctx context.Context, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	return cmd.CombinedOutput()
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
