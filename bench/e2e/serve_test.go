package e2e_test

import (
	"io"
	"strings"
	"testing"

	"github.com/agui-go/agui/bench/e2e"
)

func TestServeMainRefusesBadFlags(t *testing.T) {
	for _, args := range [][]string{{"-serve", "apache"}, {"-serve", e2e.ServerNode}, {"-bogus"}} {
		var stderr strings.Builder
		if got := e2e.ServeMain(args, strings.NewReader(""), io.Discard, &stderr); got != 2 {
			t.Errorf("%q: status %d", args, got)
		}
		if stderr.Len() == 0 {
			t.Errorf("%q: nothing on stderr", args)
		}
	}
}

func TestServeMainServesUntilStdinEnds(t *testing.T) {
	var stdout strings.Builder
	// stdin is empty: the server starts, announces itself and stops.
	if got := e2e.ServeMain([]string{"-serve", e2e.ServerGin}, strings.NewReader(""), &stdout, io.Discard); got != 0 {
		t.Fatalf("status %d", got)
	}
	if !strings.HasPrefix(stdout.String(), "listening 127.0.0.1:") {
		t.Errorf("stdout %q", stdout.String())
	}
}

func TestServersListsOursFirst(t *testing.T) {
	s := e2e.Servers()
	if len(s) != 4 || s[0] != e2e.ServerGin || s[1] != e2e.ServerNetHTTP {
		t.Fatalf("%q", s)
	}
	for _, name := range s[:3] {
		if _, err := e2e.GoHandler(name, 1); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
