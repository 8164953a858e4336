package replicas_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agui-go/agui"
)

// buildApp builds examples/gin-app into a temporary directory.
func buildApp(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("AGUI_APP_BIN"); bin != "" {
		return bin // test/all.sh built it for every package
	}
	bin := filepath.Join(t.TempDir(), "gin-app")
	if out, err := exec.CommandContext(t.Context(), "go", "build", "-o", bin, "../../examples/gin-app").CombinedOutput(); err != nil {
		t.Fatalf("go build ./examples/gin-app: %v\n%s", err, out)
	}
	return bin
}

// replica is one example-app process. Its log is kept, and each line
// is offered to the current watcher.
type replica struct {
	name string
	url  string
	cmd  *exec.Cmd
	done chan struct{} // closed when its log reached EOF and it was waited for

	mu      sync.Mutex
	log     []string
	watcher func(line string)
}

// startReplica starts bin on a free loopback port with args and stops
// it (SIGTERM) when the test ends.
func startReplica(t *testing.T, name, bin string, args ...string) *replica {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"-addr", "127.0.0.1:0"}, args...)...)
	out, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := &replica{name: name, cmd: cmd, done: make(chan struct{})}
	listening := make(chan string, 1)
	go func() { // joined through done
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			line := sc.Text()
			if u, ok := strings.CutPrefix(field(line, "url"), "http://"); ok && strings.Contains(line, "msg=listening") {
				listening <- "http://" + u
			}
			r.mu.Lock()
			r.log = append(r.log, line)
			w := r.watcher
			r.mu.Unlock()
			if w != nil {
				w(line)
			}
		}
		_ = cmd.Wait()
		close(r.done)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		<-r.done
	})
	select {
	case r.url = <-listening:
	case <-r.done:
		t.Fatalf("%s exited before listening:\n%s", name, strings.Join(r.lines(), "\n"))
	}
	return r
}

// field returns the value of key=value in a slog text line.
func field(line, key string) string {
	i := strings.Index(line, " "+key+"=")
	if i < 0 {
		return ""
	}
	v := line[i+len(key)+2:]
	if j := strings.IndexByte(v, ' '); j >= 0 {
		v = v[:j]
	}
	return v
}

func (r *replica) lines() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.log...)
}

// watch calls f with each later log line until the returned stop.
func (r *replica) watch(f func(line string)) (stop func()) {
	r.mu.Lock()
	r.watcher = f
	r.mu.Unlock()
	return func() {
		r.mu.Lock()
		r.watcher = nil
		r.mu.Unlock()
	}
}

// kill ends the replica with SIGKILL and waits for it.
func (r *replica) kill() {
	_ = r.cmd.Process.Signal(syscall.SIGKILL)
	<-r.done
}

// toolStarts counts the "tool started" lines for tool in the logs of rs.
func toolStarts(tool string, rs ...*replica) int {
	n := 0
	for _, r := range rs {
		for _, l := range r.lines() {
			if strings.Contains(l, `msg="tool started"`) && field(l, "tool") == tool {
				n++
			}
		}
	}
	return n
}

// runResult is what one POST to the loop route returned.
type runResult struct {
	status int
	body   string // a non-stream answer
	events []agui.Event
	err    error // transport or decoding
}

// last returns the stream's last event, or nil.
func (r runResult) last() agui.Event {
	if len(r.events) == 0 {
		return nil
	}
	return r.events[len(r.events)-1]
}

// finished reports whether the run ended with RUN_FINISHED of outcome typ.
func (r runResult) finished(typ agui.OutcomeType) bool {
	fin, ok := r.last().(*agui.RunFinished)
	if !ok {
		return false
	}
	if fin.Outcome == nil {
		return typ == agui.OutcomeSuccess
	}
	return fin.Outcome.Type == typ
}

// errorCode is the code of the stream's RUN_ERROR, or of the JSON error
// answered before any stream (a 409 THREAD_BUSY, say), or "".
func (r runResult) errorCode() string {
	if e, ok := r.last().(*agui.RunError); ok {
		return e.Code
	}
	var refusal struct{ Code string }
	if len(r.events) == 0 && json.Unmarshal([]byte(r.body), &refusal) == nil {
		return refusal.Code
	}
	return ""
}

func (r runResult) String() string {
	if r.err != nil {
		return "error: " + r.err.Error()
	}
	if len(r.events) == 0 {
		return fmt.Sprintf("HTTP %d %s", r.status, r.body)
	}
	b, _ := json.Marshal(r.last())
	return fmt.Sprintf("HTTP %d, %d events, last %s", r.status, len(r.events), b)
}

// post sends a run request to the loop route of r and reads its SSE
// stream to the end.
func post(ctx context.Context, r *replica, in map[string]any) runResult {
	in["protocolVersion"] = "1.0"
	body, err := json.Marshal(in)
	if err != nil {
		return runResult{err: err}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.url+"/agents/loop", bytes.NewReader(body))
	if err != nil {
		return runResult{err: err}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return runResult{err: err}
	}
	defer resp.Body.Close()
	res := runResult{status: resp.StatusCode}
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		b, err := io.ReadAll(resp.Body)
		res.body, res.err = string(b), err
		return res
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		ev, err := agui.DecodeEvent([]byte(data))
		if err != nil {
			res.err = err
			return res
		}
		res.events = append(res.events, ev)
	}
	res.err = sc.Err()
	return res
}

// start is a run request with the first user message on thread.
func start(thread, run string) map[string]any {
	return map[string]any{"threadId": thread, "runId": run, "messages": []any{
		map[string]any{"id": "u-" + thread, "role": "user", "content": "Plan a weekend in Oslo"},
	}}
}

// resume is a run request answering interrupt.
func resume(thread, run, interrupt string, approved bool) map[string]any {
	in := start(thread, run)
	in["resume"] = []any{map[string]any{"interruptId": interrupt, "status": "resolved", "payload": map[string]any{"approved": approved}}}
	return in
}

// pause runs the first turn on r; it must end awaiting approval.
func pause(t *testing.T, r *replica, thread string) string {
	t.Helper()
	res := post(t.Context(), r, start(thread, "run-1"))
	if !res.finished(agui.OutcomeInterrupt) {
		t.Fatalf("first run on %s: %v", r.name, res)
	}
	return res.last().(*agui.RunFinished).Outcome.Interrupts[0].ID
}

// waitUntil returns at when, or when ctx ends.
func waitUntil(ctx context.Context, when time.Time) {
	timer := time.NewTimer(time.Until(when))
	defer timer.Stop()
	select {
	case <-timer.C:
	case <-ctx.Done():
	}
}
