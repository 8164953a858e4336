package e2e_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/agui-go/agui/bench/e2e"
)

// TestCompareShort is the short mode of the comparison: every server once
// at C = 1 for a moment; every stream must be complete.
func TestCompareShort(t *testing.T) {
	for _, servers := range [][]string{{e2e.ServerGin, e2e.ServerNetHTTP, e2e.ServerCommunity}, {e2e.ServerNode}} {
		t.Run(strings.Join(servers, ","), func(t *testing.T) {
			if servers[0] == e2e.ServerNode {
				needNode(t)
			}
			var progress bytes.Buffer
			rows, err := e2e.Compare{Servers: servers, Duration: 50 * time.Millisecond,
				Launch: launcher(10), Progress: &progress}.Run(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) != len(servers) {
				t.Fatalf("%d rows, want %d", len(rows), len(servers))
			}
			for _, r := range rows {
				if r.Streams == 0 || r.Failures != 0 || r.Events != int64(r.Streams)*e2e.FixtureEvents {
					t.Errorf("%s: %d streams, %d failures %q, %d events", r.Server, r.Streams, r.Failures, r.Errors, r.Events)
				}
				if len(r.TTFE) != r.Streams || r.PeakRSS <= 0 || len(r.RoundCPU) != 1 {
					t.Errorf("%s: %d TTFE samples, peak RSS %d, %d rounds", r.Server, len(r.TTFE), r.PeakRSS, len(r.RoundCPU))
				}
			}
			if n := strings.Count(progress.String(), "\n"); n != len(servers) {
				t.Errorf("%d progress lines, want %d:\n%s", n, len(servers), progress.String())
			}
			var md bytes.Buffer
			e2e.WriteComparison(&md, rows)
			for _, s := range servers {
				if !strings.Contains(md.String(), "| 1 | "+s+" | ") {
					t.Errorf("no row for %s in\n%s", s, md.String())
				}
			}
		})
	}
}

func TestCompareNeedsALauncher(t *testing.T) {
	if _, err := (e2e.Compare{}).Run(t.Context()); err == nil {
		t.Fatal("no error without a Launcher")
	}
}

func TestLauncherRefusesUnknownServers(t *testing.T) {
	if _, err := launcher(1)("apache"); err == nil {
		t.Fatal("no error for an unknown server")
	}
}
