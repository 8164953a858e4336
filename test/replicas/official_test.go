package replicas_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/test/internal/nodetest"
)

// officialReport is what official.mjs prints.
type officialReport struct {
	Handoff struct {
		First, Second []string
		Reason        string
		Errors        []string
		PendingAfter  int
		Tool          []string
		Text          string
	}
	Concurrent struct {
		Finished int
		Refused  []string
		Errors   []string
	}
}

// officialClient runs official.mjs with the official @ag-ui/client
// (pinned by this directory's package-lock.json) against replicas a and b.
func officialClient(t *testing.T, a, b *replica) officialReport {
	t.Helper()
	node := nodetest.Node(t)
	cmd := exec.CommandContext(t.Context(), node, "official.mjs")
	cmd.Env = append(os.Environ(), "A_URL="+a.url, "B_URL="+b.url)
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("node official.mjs: %v\n%s\n%s", err, out, stderr)
	}
	var rep officialReport
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("official.mjs printed %s: %v", out, err)
	}
	return rep
}

func testOfficialClient(t *testing.T, a, b *replica) {
	before := toolStarts("book_trip", a, b)
	rep := officialClient(t, a, b)
	h := rep.Handoff
	if !slices.Equal(h.First, []string{"interrupt"}) || h.Reason != loop.ReasonToolApproval || !slices.Equal(h.Second, []string{"success"}) ||
		len(h.Errors) > 0 || h.PendingAfter != 0 {
		t.Fatalf("official client, pause on A and resume on B: %+v", h)
	}
	if !slices.Contains(h.Tool, "booked 2 nights in Oslo") || !strings.Contains(h.Text, "Oslo is sunny") {
		t.Fatalf("the client's messages after the resume on B: tool results %q, last text %q", h.Tool, h.Text)
	}
	c := rep.Concurrent
	for _, code := range c.Refused {
		if code != string(loop.CodeBusy) && code != string(loop.CodeBadResume) {
			t.Errorf("a concurrent resume was refused with %s", code)
		}
	}
	if c.Finished != 1 || len(c.Refused) != 49 {
		t.Fatalf("official client, 50 concurrent resumes: %d finished, refused %v, client errors %v", c.Finished, c.Refused, c.Errors)
	}
	if got := toolStarts("book_trip", a, b) - before; got != 2 {
		t.Fatalf("book_trip ran %d times for the two threads, want 2 (once each)", got)
	}
}
