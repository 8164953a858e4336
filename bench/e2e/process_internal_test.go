package e2e

import (
	"os"
	"testing"
)

// TestProcessCPUReadsThisProcess reads this test's own /proc entries: the
// command name in parentheses is skipped, whatever it holds.
func TestProcessCPUReadsThisProcess(t *testing.T) {
	pid := os.Getpid()
	before, err := processCPU(pid)
	if err != nil {
		t.Fatal(err)
	}
	after, err := processCPU(pid)
	if err != nil {
		t.Fatal(err)
	}
	if after < before || after%clockTick != 0 {
		t.Errorf("CPU %s then %s", before, after)
	}
	if rss, err := procStatus(pid, "VmRSS:"); err != nil || rss <= 0 {
		t.Errorf("VmRSS %d, %v", rss, err)
	}
	if _, err := procStatus(pid, "NoSuchKey:"); err == nil {
		t.Error("no error for a missing key")
	}
	if _, err := processCPU(-1); err == nil {
		t.Error("no error for a missing process")
	}
}
