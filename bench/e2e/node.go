package e2e

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// NodeDir returns the directory of the Node server (server.mjs and its
// package.json and package-lock.json), found next to this package's
// source.
func NodeDir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "nodeserver"
	}
	return filepath.Join(filepath.Dir(file), "nodeserver")
}

// ErrNoNode is returned by NodeCommand when node is not on PATH.
var ErrNoNode = errors.New("e2e: node is not on PATH: the Node server needs Node.js 20 or later")

// NodeCommand returns the command that runs the Node server in dir with
// args (--h2: on node:http2, cleartext), after installing its pinned
// packages with npm ci when node_modules is missing or older than
// package-lock.json.
func NodeCommand(dir string, args ...string) (*exec.Cmd, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, ErrNoNode
	}
	if !installed(dir) {
		npm, err := exec.LookPath("npm")
		if err != nil {
			return nil, errors.New("e2e: node is on PATH but npm is not: npm ci installs the Node server's packages")
		}
		// --ignore-scripts: no dependency needs an install script.
		ci := exec.Command(npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund")
		ci.Dir = dir
		if out, err := ci.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("e2e: npm ci in %s: %w\n%s", dir, err, out)
		}
	}
	cmd := exec.Command(node, append([]string{"server.mjs"}, args...)...)
	cmd.Dir = dir
	return cmd, nil
}

// installed reports whether node_modules holds what package-lock.json
// pins: npm writes node_modules/.package-lock.json on every install.
func installed(dir string) bool {
	lock, err := os.Stat(filepath.Join(dir, "package-lock.json"))
	if err != nil {
		return false
	}
	got, err := os.Stat(filepath.Join(dir, "node_modules", ".package-lock.json"))
	return err == nil && !got.ModTime().Before(lock.ModTime())
}
