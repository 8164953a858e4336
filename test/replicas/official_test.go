package replicas_test

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agui-go/agui/internal/nodetest"
	"github.com/agui-go/agui/loop"
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
	node := nodetest.Node(t, ".")
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

// takeoverReport is what takeover.mjs prints after the retried resume.
type takeoverReport struct {
	Retried struct {
		Finished  []string
		RunErrors []string
		Error     string
	}
	PendingAfter int
	Tool         []string
	Text         string
}

// testOfficialClientTakeover: the official client's resume is cut by
// SIGKILL of the replica running the approved tool; once the lease ran
// out, the client's retried resume through the other replica finishes the
// turn without running the recorded call again.
func testOfficialClientTakeover(t *testing.T, slow, b *replica, c backend) {
	node := nodetest.Node(t, ".")
	weatherBefore, bookBefore := toolStarts("get_weather", slow, b), toolStarts("book_trip", slow, b)
	started := make(chan struct{})
	var once sync.Once
	stop := slow.watch(func(line string) {
		if strings.Contains(line, `msg="tool started"`) && strings.Contains(line, "tool=book_trip") {
			once.Do(func() { close(started) })
		}
	})
	defer stop()
	cmd := exec.CommandContext(t.Context(), node, "takeover.mjs")
	cmd.Env = append(os.Environ(), "C_URL="+slow.url, "B_URL="+b.url)
	var stderr strings.Builder // the client's console; shown when the test fails
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = stdin.Close()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("takeover.mjs stderr:\n%s", stderr.String())
		}
	}()
	out := bufio.NewScanner(stdout)
	out.Buffer(nil, 1<<20)
	select {
	case <-started:
	case <-t.Context().Done():
		t.Fatal("book_trip never started on the slow replica")
	}
	slow.kill()
	if !out.Scan() {
		t.Fatalf("takeover.mjs printed nothing after the kill: %v", out.Err())
	}
	var cut struct {
		First []string
		Cut   struct{ Finished []string }
	}
	if err := json.Unmarshal(out.Bytes(), &cut); err != nil || !slices.Equal(cut.First, []string{"interrupt"}) || len(cut.Cut.Finished) != 0 {
		t.Fatalf("before the kill the client saw %s (%v)", out.Bytes(), err)
	}
	_, until := storedLease(t, c, "official-3")
	waitUntil(t.Context(), until.Add(10*time.Millisecond))
	if _, err := io.WriteString(stdin, "lease over\n"); err != nil {
		t.Fatal(err)
	}
	if !out.Scan() {
		t.Fatalf("takeover.mjs printed no report: %v", out.Err())
	}
	var rep takeoverReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("takeover.mjs printed %s: %v", out.Bytes(), err)
	}
	if !slices.Equal(rep.Retried.Finished, []string{"success"}) || rep.Retried.Error != "" || rep.PendingAfter != 0 {
		t.Fatalf("the retried resume through B: %+v", rep.Retried)
	}
	if !slices.Contains(rep.Tool, "booked 2 nights in Oslo") || !strings.Contains(rep.Text, "Oslo is sunny") {
		t.Fatalf("the client's messages after the takeover: tool results %q, last text %q", rep.Tool, rep.Text)
	}
	if got := toolStarts("get_weather", slow, b) - weatherBefore; got != 1 {
		t.Fatalf("get_weather ran %d times, want 1 (in the run that paused): a recorded call ran again", got)
	}
	if got := toolStarts("book_trip", slow, b) - bookBefore; got != 2 {
		t.Fatalf("book_trip started %d times, want 2 (killed on the slow replica, then on B)", got)
	}
}
