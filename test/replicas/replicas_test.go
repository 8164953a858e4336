package replicas_test

import (
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
)

// lease is the replicas' lease: short, so that a killed replica's thread
// is free again soon.
const lease = time.Second

func TestTwoReplicasOneRedis(t *testing.T) { twoReplicas(t, redisBackend(t)) }

// TestTwoReplicasOnePostgres: the same scenarios with the replicas on one
// PostgreSQL (-postgres).
func TestTwoReplicasOnePostgres(t *testing.T) { twoReplicas(t, postgresBackend(t)) }

func twoReplicas(t *testing.T, c backend) {
	bin := buildApp(t)
	common := slices.Clip(append(slices.Clip(c.args), "-lease", lease.String()))
	a := startReplica(t, "A", bin, append(common, "-book-delay", "100ms")...)
	b := startReplica(t, "B", bin, append(common, "-book-delay", "100ms")...)

	t.Run("paused on A, resumed on B", func(t *testing.T) {
		id := pause(t, a, "t1")
		res := post(t.Context(), b, resume("t1", "run-2", id, true))
		if !res.finished(agui.OutcomeSuccess) {
			t.Fatalf("resume on B: %v", res)
		}
		var booked bool
		for _, ev := range res.events {
			if r, ok := ev.(*agui.ToolCallResult); ok && r.Content.String() == "booked 2 nights in Oslo" {
				booked = true
			}
		}
		if got := toolStarts("book_trip", b); !booked || got != 1 || toolStarts("book_trip", a) != 0 {
			t.Fatalf("book_trip: result %v, started %d times on B and %d on A; want once, on B", booked, got, toolStarts("book_trip", a))
		}
		if got := toolStarts("get_weather", a, b); got != 1 {
			t.Fatalf("get_weather started %d times, want 1", got)
		}
		// The thread's history reads the same from either replica.
		fromA, fromB := history(t, a, "t1"), history(t, b, "t1")
		if fromA != fromB || !strings.Contains(fromA, "booked 2 nights in Oslo") {
			t.Fatalf("history differs between replicas:\nA: %s\nB: %s", fromA, fromB)
		}
	})

	t.Run("50 identical resumes over both replicas", func(t *testing.T) {
		before := toolStarts("book_trip", a, b)
		id := pause(t, b, "t2")
		const n = 50
		results := make([]runResult, n)
		var wg sync.WaitGroup
		ready := make(chan struct{})
		for i := range n {
			r := []*replica{a, b}[i%2]
			wg.Go(func() {
				<-ready
				results[i] = post(t.Context(), r, resume("t2", fmt.Sprint("run-r", i), id, true))
			})
		}
		close(ready)
		wg.Wait()
		finished, refused := 0, map[string]int{}
		for _, res := range results {
			switch {
			case res.finished(agui.OutcomeSuccess):
				finished++
			case res.errorCode() == string(loop.CodeBusy) || res.errorCode() == string(loop.CodeBadResume):
				refused[res.errorCode()]++
			default:
				t.Errorf("a resume ended otherwise: %v", res)
			}
		}
		if got := toolStarts("book_trip", a, b) - before; got != 1 || finished != 1 {
			t.Fatalf("%d resumes: book_trip ran %d times and %d runs finished (refused: %v); want 1 and 1", n, got, finished, refused)
		}
		t.Logf("%d resumes: 1 finished, refused %v", n, refused)
	})

	t.Run("official client", func(t *testing.T) { testOfficialClient(t, a, b) })

	t.Run("replica killed while its tool runs", func(t *testing.T) {
		// C books slowly: it is killed in the middle of book_trip.
		cr := startReplica(t, "C", bin, append(common, "-book-delay", "1m")...)
		id := pause(t, cr, "t3")
		weatherBefore, bookBefore := toolStarts("get_weather", a, b, cr), toolStarts("book_trip", a, b, cr)
		started := make(chan struct{})
		var once sync.Once
		stop := cr.watch(func(line string) {
			if strings.Contains(line, `msg="tool started"`) && strings.Contains(line, "tool=book_trip") {
				once.Do(func() { close(started) })
			}
		})
		resumed := make(chan runResult, 1)
		go func() { resumed <- post(t.Context(), cr, resume("t3", "run-2", id, true)) }()
		<-started
		stop()
		cr.kill()
		if res := <-resumed; res.finished(agui.OutcomeSuccess) {
			t.Fatalf("the killed replica's run finished: %v", res)
		}
		status, until := storedLease(t, c, "t3")
		if status != loop.StatusRunning || time.Until(until) <= 0 {
			t.Fatalf("after the kill the thread is %s until %v", status, until)
		}
		// Within the lease the thread is C's: B refuses to touch it.
		// The client whose stream broke sends its resume again.
		continueOn := resume("t3", "run-3", id, true)
		if res := post(t.Context(), b, continueOn); res.errorCode() != string(loop.CodeBusy) {
			t.Fatalf("B within C's lease: %v, want THREAD_BUSY", res)
		}
		waitUntil(t.Context(), until.Add(10*time.Millisecond))
		res := post(t.Context(), b, resume("t3", "run-4", id, true))
		if !res.finished(agui.OutcomeSuccess) {
			t.Fatalf("B after C's lease: %v", res)
		}
		var text string
		for _, ev := range res.events {
			if d, ok := ev.(*agui.TextMessageContent); ok {
				text += d.Delta
			}
		}
		if !strings.Contains(text, "Oslo is sunny") {
			t.Fatalf("B did not finish the turn: text %q", text)
		}
		// get_weather has its result recorded: it never runs again. The
		// booking C was killed in has none: B runs it (with the recorded
		// approval), which is why tools take the call id as an
		// idempotency key.
		if got := toolStarts("get_weather", a, b, cr) - weatherBefore; got != 0 {
			t.Fatalf("get_weather ran %d more times after the kill", got)
		}
		if got := toolStarts("book_trip", a, b, cr) - bookBefore; got != 2 {
			t.Fatalf("book_trip started %d times since the pause, want 2 (killed on C, then on B)", got)
		}
		if status, _ := storedLease(t, c, "t3"); status != loop.StatusIdle {
			t.Fatalf("thread after B's run: %s", status)
		}
	})

	t.Run("official client, replica killed while its tool runs", func(t *testing.T) {
		slow := startReplica(t, "D", bin, append(common, "-book-delay", "1m")...)
		testOfficialClientTakeover(t, slow, b, c)
	})

	t.Run(c.name+" down, then back", func(t *testing.T) {
		before := toolStarts("get_weather", a, b)
		c.stop(t)
		res := post(t.Context(), a, start("t4", "run-1"))
		if res.errorCode() != string(loop.CodeCheckpoint) && res.status != 503 {
			t.Fatalf("run with %s down: %v, want RUN_ERROR CHECKPOINT_ERROR or 503", c.name, res)
		}
		if e, ok := res.last().(*agui.RunError); ok && strings.Contains(e.Message, "127.0.0.1") {
			t.Fatalf("RUN_ERROR names the store's address: %q", e.Message)
		}
		if got := toolStarts("get_weather", a, b) - before; got != 0 {
			t.Fatalf("a tool ran %d times with %s down", got, c.name)
		}
		c.restart(t)
		// Acknowledged writes survived (Redis: appendonly yes, appendfsync always).
		if status, _ := storedLease(t, c, "t1"); status != loop.StatusIdle {
			t.Fatalf("thread t1 after the %s restart: %s", c.name, status)
		}
		if res := post(t.Context(), a, start("t4", "run-2")); !res.finished(agui.OutcomeInterrupt) {
			t.Fatalf("run with %s back: %v", c.name, res)
		}
	})
}

// history reads a thread's history (GET /agents/loop/threads/{id}) from r.
func history(t *testing.T, r *replica, thread string) string {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, r.url+"/agents/loop/threads/"+thread, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("history of %s on %s: %d %s %v", thread, r.name, resp.StatusCode, body, err)
	}
	return string(body)
}
