package e2e_test

import (
	"os"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/agui-go/agui/bench/e2e"
)

// serveEnv, when set, makes the test binary a server process: its value is
// ServeMain's arguments. The tests start servers this way.
const serveEnv = "AGUI_E2E_SERVE"

func TestMain(m *testing.M) {
	if args := os.Getenv(serveEnv); args != "" {
		os.Exit(e2e.ServeMain(strings.Fields(args), os.Stdin, os.Stdout, os.Stderr))
	}
	goleak.VerifyTestMain(m)
}
