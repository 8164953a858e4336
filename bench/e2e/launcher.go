package e2e

import (
	"os/exec"
	"strconv"
)

// NewLauncher returns a Launcher that starts the Go servers with self,
// given ServeMain's flags (-serve NAME -deltas N), and the Node server
// from nodeDir with NodeCommand.
func NewLauncher(self func(args ...string) *exec.Cmd, nodeDir string, deltas int) Launcher {
	return func(name string) (*exec.Cmd, error) {
		switch name {
		case ServerNode:
			return NodeCommand(nodeDir)
		case ServerNodeHTTP2:
			return NodeCommand(nodeDir, "--h2")
		}
		if _, err := GoHandler(name, deltas); err != nil {
			return nil, err
		}
		return self("-serve", name, "-deltas", strconv.Itoa(deltas)), nil
	}
}
