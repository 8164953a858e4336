package logtest

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/resume"
)

// NewLog returns a fresh, empty log for one subtest. Cleaning up (closing
// clients) is the function's job, with t.Cleanup.
type NewLog func(t *testing.T) resume.Log

// checks are the conformance checks, in the order Run runs them.
func checks() []check {
	return []check{
		{"AppendRead", appendRead},
		{"RetriedBatch", retriedBatch},
		{"AppendCopies", appendCopies},
		{"Pages", pages},
		{"Refusals", refusals},
		{"ReadWaitsForAppend", readWaits},
		{"Fencing", fencing},
		{"ConcurrentTakeover", concurrentTakeover},
		{"Stop", stop},
		{"ActiveRunPerPrincipal", activeRunPerPrincipal},
		{"DeleteThread", deleteThread},
		{"Presence", presence},
		{"LargeEntry", largeEntry},
		{"ResumableRoute", resumableRoute},
		{"Dialects", dialects},
	}
}

type check struct {
	name string
	fn   func(*testing.T, resume.Log)
}

// Names returns the names of [Run]'s subtests, in order: select some with
// go test -run 'TestLog/Fencing'.
func Names() []string {
	var out []string
	for _, c := range checks() {
		out = append(out, c.name)
	}
	return out
}

// Run runs every conformance check as a subtest of t, each on a log from
// newLog; [Names] lists them.
func Run(t *testing.T, newLog NewLog) {
	t.Helper()
	for _, c := range checks() {
		t.Run(c.name, func(t *testing.T) { c.fn(t, newLog(t)) })
	}
}

// Entries returns n entries numbered from, the last one terminal when
// terminal is set, each holding a small JSON object that names its
// number: what the checks append, for a log's own tests too.
func Entries(from, n int, terminal bool) []resume.Entry {
	out := make([]resume.Entry, n)
	for i := range out {
		out[i] = resume.Entry{Seq: uint64(from + i), Data: []byte(`{"n":` + strconv.Itoa(from+i) + `}`)}
	}
	if terminal && n > 0 {
		out[n-1].Terminal = true
	}
	return out
}

// begin begins run on lg for a minute, owned by "a".
func begin(t *testing.T, lg resume.Log, m resume.RunMeta) resume.Lease {
	t.Helper()
	if m.Owner == "" {
		m.Owner = "a"
	}
	l, _, err := lg.Begin(t.Context(), m, time.Minute)
	if err != nil {
		t.Fatalf("Begin %s: %v", m.RunID, err)
	}
	return l
}

// seqs returns the entries' sequence numbers.
func seqs(es []resume.Entry) []uint64 {
	out := make([]uint64, len(es))
	for i, e := range es {
		out[i] = e.Seq
	}
	return out
}

func appendRead(t *testing.T, lg resume.Log) {
	ctx := t.Context()
	l, st, err := lg.Begin(ctx, resume.RunMeta{RunID: "r", ThreadID: "t", Principal: "alice", Owner: "a"}, time.Minute)
	if err != nil || l.RunID != "r" || l.Owner != "a" || st.Principal != "alice" || st.Last != 0 || st.Sealed || st.LeaseExpired {
		t.Fatalf("Begin: %+v %+v %v", l, st, err)
	}
	if err := lg.Append(ctx, l, Entries(1, 4, false)); err != nil {
		t.Fatal(err)
	}
	es, st, err := lg.Read(ctx, "r", 1, 10, 0)
	if err != nil || len(es) != 3 || st.Last != 4 {
		t.Fatalf("Read after 1: %v %+v %v", seqs(es), st, err)
	}
	for i, e := range es {
		want := Entries(2+i, 1, false)[0]
		if e.Seq != want.Seq || !bytes.Equal(e.Data, want.Data) || e.Terminal {
			t.Fatalf("entry %d: %d %s %v, want %d %s", i, e.Seq, e.Data, e.Terminal, want.Seq, want.Data)
		}
	}
	if err := lg.Append(ctx, l, Entries(5, 1, true)); err != nil {
		t.Fatal(err)
	}
	if err := lg.Seal(ctx, l); err != nil {
		t.Fatal(err)
	}
	es, st, err = lg.Read(ctx, "r", 4, 10, time.Minute) // sealed: no wait
	if err != nil || len(es) != 1 || !es[0].Terminal || es[0].Seq != 5 || !st.Sealed {
		t.Fatalf("the terminal entry: %v %+v %v", seqs(es), st, err)
	}
	es, _, err = lg.Read(ctx, "r", 5, 10, time.Minute)
	if err != nil || len(es) != 0 {
		t.Fatalf("Read after the terminal entry of a sealed run: %v %v", seqs(es), err)
	}
	if st, err := lg.Status(ctx, "r"); err != nil || !st.Sealed || st.Last != 5 || st.ThreadID != "t" || st.Principal != "alice" {
		t.Fatalf("Status: %+v %v", st, err)
	}
	if err := lg.Append(ctx, l, Entries(6, 1, false)); !errors.Is(err, resume.ErrFenced) {
		t.Fatalf("Append after Seal: %v, want ErrFenced", err)
	}
}

func retriedBatch(t *testing.T, lg resume.Log) {
	ctx := t.Context()
	l := begin(t, lg, resume.RunMeta{RunID: "r", ThreadID: "t"})
	if err := lg.Append(ctx, l, Entries(1, 3, false)); err != nil {
		t.Fatal(err)
	}
	// A batch retried after an ambiguous failure is accepted again without
	// effect, with what follows it stored.
	if err := lg.Append(ctx, l, Entries(2, 3, false)); err != nil {
		t.Fatalf("overlapping retry: %v", err)
	}
	if err := lg.Append(ctx, l, Entries(9, 1, false)); !errors.Is(err, resume.ErrSeqConflict) {
		t.Fatalf("a gap: %v, want ErrSeqConflict", err)
	}
	es, st, err := lg.Read(ctx, "r", 0, 10, 0)
	if err != nil || st.Last != 4 || len(es) != 4 {
		t.Fatalf("Read: %v %+v %v", seqs(es), st, err)
	}
	for i, e := range es {
		if e.Seq != uint64(i+1) || string(e.Data) != `{"n":`+strconv.Itoa(i+1)+`}` {
			t.Fatalf("entry %d: %d %s: stored twice or out of order", i, e.Seq, e.Data)
		}
	}
}

// appendCopies: the caller may reuse an entry's bytes once Append has
// returned, as a run's owner reuses its encoding buffer.
func appendCopies(t *testing.T, lg resume.Log) {
	ctx := t.Context()
	l := begin(t, lg, resume.RunMeta{RunID: "r", ThreadID: "t"})
	buf := []byte(`{"n":1}{"n":2}`)
	if err := lg.Append(ctx, l, []resume.Entry{{Seq: 1, Data: buf[:7]}, {Seq: 2, Data: buf[7:]}}); err != nil {
		t.Fatal(err)
	}
	copy(buf, `{"x":0}{"x":0}`)
	es, _, err := lg.Read(ctx, "r", 0, 10, 0)
	if err != nil || len(es) != 2 || string(es[0].Data) != `{"n":1}` || string(es[1].Data) != `{"n":2}` {
		t.Fatalf("after the caller reused its buffer the log holds %v, %v", es, err)
	}
}

func pages(t *testing.T, lg resume.Log) {
	ctx := t.Context()
	l := begin(t, lg, resume.RunMeta{RunID: "r", ThreadID: "t"})
	if err := lg.Append(ctx, l, Entries(1, 250, false)); err != nil {
		t.Fatal(err)
	}
	var got []uint64
	cursor := uint64(0)
	for range 10 {
		es, _, err := lg.Read(ctx, "r", cursor, 100, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(es) > 100 {
			t.Fatalf("Read returned %d entries, over its max of 100", len(es))
		}
		if len(es) == 0 {
			break
		}
		got = append(got, seqs(es)...)
		cursor = es[len(es)-1].Seq
	}
	if len(got) != 250 {
		t.Fatalf("paged through %d entries, want 250", len(got))
	}
	for i, s := range got {
		if s != uint64(i+1) {
			t.Fatalf("entry %d has Seq %d", i, s)
		}
	}
}

func refusals(t *testing.T, lg resume.Log) {
	ctx := t.Context()
	l := begin(t, lg, resume.RunMeta{RunID: "r", ThreadID: "t", Principal: "alice"})
	if err := lg.Append(ctx, l, Entries(1, 2, false)); err != nil {
		t.Fatal(err)
	}
	if _, st, err := lg.Begin(ctx, resume.RunMeta{RunID: "r", Owner: "b"}, time.Minute); !errors.Is(err, resume.ErrRunExists) || st.Principal != "alice" || st.ThreadID != "t" {
		t.Fatalf("a second Begin: %v %+v, want ErrRunExists with the run's status", err, st)
	}
	if _, _, err := lg.Read(ctx, "r", 3, 10, 0); !errors.Is(err, resume.ErrCursorAhead) {
		t.Fatalf("a cursor ahead: %v, want ErrCursorAhead", err)
	}
	if _, _, err := lg.Read(ctx, "nope", 0, 10, 0); !errors.Is(err, resume.ErrRunNotFound) {
		t.Fatalf("Read of an unknown run: %v, want ErrRunNotFound", err)
	}
	if _, err := lg.Status(ctx, "nope"); !errors.Is(err, resume.ErrRunNotFound) {
		t.Fatalf("Status of an unknown run: %v, want ErrRunNotFound", err)
	}
	if id, err := lg.ActiveRun(ctx, "no-thread", "alice"); id != "" || err != nil {
		t.Fatalf("ActiveRun of an unknown thread: %q %v", id, err)
	}
}

func readWaits(t *testing.T, lg resume.Log) {
	ctx := t.Context()
	l := begin(t, lg, resume.RunMeta{RunID: "r", ThreadID: "t"})
	got := make(chan []resume.Entry, 1)
	go func() {
		es, _, err := lg.Read(ctx, "r", 0, 10, time.Minute)
		if err != nil {
			t.Error(err)
		}
		got <- es
	}()
	// Whether the append lands before or during the wait, the reader gets
	// it, and well before its wait is over.
	start := time.Now()
	if err := lg.Append(ctx, l, Entries(1, 2, false)); err != nil {
		t.Fatal(err)
	}
	if es := <-got; len(es) == 0 || es[0].Seq != 1 {
		t.Fatalf("woken with %v", seqs(es))
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Fatalf("the append woke the reader after %v", d)
	}
	// With nothing to come, the wait ends empty, within its bound.
	start = time.Now()
	es, _, err := lg.Read(ctx, "r", 2, 10, 50*time.Millisecond)
	if err != nil || len(es) != 0 {
		t.Fatalf("an empty wait: %v %v", seqs(es), err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("a 50ms wait took %v", d)
	}
}

func fencing(t *testing.T, lg resume.Log) {
	ctx := t.Context()
	begin(t, lg, resume.RunMeta{RunID: "live", ThreadID: "t"})
	if _, _, err := lg.Takeover(ctx, "live", "b", time.Minute); !errors.Is(err, resume.ErrLeaseHeld) {
		t.Fatalf("takeover of a live lease: %v, want ErrLeaseHeld", err)
	}
	// A lease of 0 has expired at once, by the log's clock.
	old, _, err := lg.Begin(ctx, resume.RunMeta{RunID: "r", ThreadID: "t2", Owner: "a"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := lg.Append(ctx, old, Entries(1, 1, false)); err != nil {
		t.Fatal(err)
	}
	if st, err := lg.Status(ctx, "r"); err != nil || !st.LeaseExpired {
		t.Fatalf("a lease of 0 is not expired: %+v %v", st, err)
	}
	l2, st, err := lg.Takeover(ctx, "r", "b", time.Minute)
	if err != nil || l2.Gen <= old.Gen || l2.Owner != "b" || st.Owner != "b" || st.Last != 1 || st.LeaseExpired {
		t.Fatalf("takeover: %+v %+v %v", l2, st, err)
	}
	if err := lg.Append(ctx, old, Entries(2, 1, false)); !errors.Is(err, resume.ErrFenced) {
		t.Fatalf("the old owner appended: %v, want ErrFenced", err)
	}
	if _, err := lg.Renew(ctx, old, time.Minute); !errors.Is(err, resume.ErrFenced) {
		t.Fatalf("the old owner renewed: %v, want ErrFenced", err)
	}
	if err := lg.Seal(ctx, old); !errors.Is(err, resume.ErrFenced) {
		t.Fatalf("the old owner sealed: %v, want ErrFenced", err)
	}
	if err := lg.Append(ctx, l2, Entries(2, 1, true)); err != nil {
		t.Fatalf("the new owner's append: %v", err)
	}
	if err := lg.Seal(ctx, l2); err != nil {
		t.Fatal(err)
	}
	if _, _, err := lg.Takeover(ctx, "r", "c", 0); !errors.Is(err, resume.ErrFenced) {
		t.Fatalf("takeover of a sealed run: %v, want ErrFenced", err)
	}
}

func concurrentTakeover(t *testing.T, lg resume.Log) {
	ctx := t.Context()
	if _, _, err := lg.Begin(ctx, resume.RunMeta{RunID: "r", ThreadID: "t", Owner: "dead"}, 0); err != nil {
		t.Fatal(err)
	}
	const n = 20
	var wins atomic.Int32
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			_, _, err := lg.Takeover(ctx, "r", "replica-"+strconv.Itoa(i), time.Minute)
			switch {
			case err == nil:
				wins.Add(1)
			case !errors.Is(err, resume.ErrLeaseHeld):
				t.Errorf("a losing takeover: %v, want ErrLeaseHeld", err)
			}
		})
	}
	wg.Wait()
	if wins.Load() != 1 {
		t.Fatalf("%d of %d replicas took the run over, want exactly 1", wins.Load(), n)
	}
}

func stop(t *testing.T, lg resume.Log) {
	ctx := t.Context()
	l := begin(t, lg, resume.RunMeta{RunID: "r", ThreadID: "t"})
	if st, err := lg.Renew(ctx, l, time.Minute); err != nil || st.Stopped {
		t.Fatalf("Renew before Stop: %+v %v", st, err)
	}
	if err := lg.Stop(ctx, "r"); err != nil {
		t.Fatal(err)
	}
	if st, err := lg.Renew(ctx, l, time.Minute); err != nil || !st.Stopped {
		t.Fatalf("Renew after Stop: %+v %v, want Stopped", st, err)
	}
	// Stopping a sealed run has no effect.
	l2 := begin(t, lg, resume.RunMeta{RunID: "r2", ThreadID: "t"})
	if err := lg.Append(ctx, l2, Entries(1, 1, true)); err != nil {
		t.Fatal(err)
	}
	if err := lg.Seal(ctx, l2); err != nil {
		t.Fatal(err)
	}
	if err := lg.Stop(ctx, "r2"); err != nil {
		t.Fatalf("Stop of a sealed run: %v", err)
	}
	if st, err := lg.Status(ctx, "r2"); err != nil || st.Stopped || !st.Sealed {
		t.Fatalf("a sealed run after Stop: %+v %v", st, err)
	}
}

func activeRunPerPrincipal(t *testing.T, lg resume.Log) {
	ctx := t.Context()
	la := begin(t, lg, resume.RunMeta{RunID: "ra", ThreadID: "t", Principal: "alice"})
	begin(t, lg, resume.RunMeta{RunID: "rb", ThreadID: "t", Principal: "bob"})
	// A thread id and principal that would share a key with another if
	// the key were their concatenation.
	begin(t, lg, resume.RunMeta{RunID: "rc", ThreadID: "t}:", Principal: ""})
	for p, want := range map[string]string{"alice": "ra", "bob": "rb", "mallory": ""} {
		if id, err := lg.ActiveRun(ctx, "t", p); id != want || err != nil {
			t.Fatalf("%s's active run: %q %v, want %q", p, id, err, want)
		}
	}
	if id, err := lg.ActiveRun(ctx, "t}:", ""); id != "rc" || err != nil {
		t.Fatalf("the odd thread's active run: %q %v", id, err)
	}
	if err := lg.Append(ctx, la, Entries(1, 1, true)); err != nil {
		t.Fatal(err)
	}
	if err := lg.Seal(ctx, la); err != nil {
		t.Fatal(err)
	}
	if id, _ := lg.ActiveRun(ctx, "t", "alice"); id != "" {
		t.Fatalf("alice's sealed run is still active: %q", id)
	}
	if id, _ := lg.ActiveRun(ctx, "t", "bob"); id != "rb" {
		t.Fatalf("sealing alice's run ended bob's: %q", id)
	}
}

// deleteThread: a thread's runs of one principal go, sealed and running,
// and its running run's owner can write no more; another principal's run
// on the thread and the principal's runs of other threads stay.
func deleteThread(t *testing.T, lg resume.Log) {
	ctx := t.Context()
	if err := lg.DeleteThread(ctx, "none", "alice"); err != nil {
		t.Fatalf("deleting a thread without runs: %v", err)
	}
	done := begin(t, lg, resume.RunMeta{RunID: "d1", ThreadID: "t", Principal: "alice"})
	if err := lg.Append(ctx, done, Entries(1, 1, true)); err != nil {
		t.Fatal(err)
	}
	if err := lg.Seal(ctx, done); err != nil {
		t.Fatal(err)
	}
	live := begin(t, lg, resume.RunMeta{RunID: "d2", ThreadID: "t", Principal: "alice"})
	if err := lg.Append(ctx, live, Entries(1, 2, false)); err != nil {
		t.Fatal(err)
	}
	begin(t, lg, resume.RunMeta{RunID: "d3", ThreadID: "t", Principal: "bob"})
	begin(t, lg, resume.RunMeta{RunID: "d4", ThreadID: "u", Principal: "alice"})
	if err := lg.DeleteThread(ctx, "t", "alice"); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"d1", "d2"} {
		if _, err := lg.Status(ctx, id); !errors.Is(err, resume.ErrRunNotFound) {
			t.Errorf("run %s of the deleted thread: %v, want ErrRunNotFound", id, err)
		}
		if _, _, err := lg.Read(ctx, id, 0, 10, 0); !errors.Is(err, resume.ErrRunNotFound) {
			t.Errorf("reading run %s of the deleted thread: %v, want ErrRunNotFound", id, err)
		}
	}
	if id, err := lg.ActiveRun(ctx, "t", "alice"); id != "" || err != nil {
		t.Errorf("the deleted thread's active run: %q %v", id, err)
	}
	if err := lg.Append(ctx, live, Entries(3, 1, false)); err == nil {
		t.Error("the deleted running run's owner appended")
	}
	if id, err := lg.ActiveRun(ctx, "t", "bob"); id != "d3" || err != nil {
		t.Errorf("bob's run on the thread: %q %v, want d3", id, err)
	}
	if _, err := lg.Status(ctx, "d4"); err != nil {
		t.Errorf("alice's run of another thread: %v", err)
	}
	// The run id is free again.
	begin(t, lg, resume.RunMeta{RunID: "d1", ThreadID: "t", Principal: "alice"})
}

func presence(t *testing.T, lg resume.Log) {
	ctx := t.Context()
	l := begin(t, lg, resume.RunMeta{RunID: "r", ThreadID: "t"})
	if st, err := lg.Renew(ctx, l, time.Minute); err != nil || st.SinceRead >= 0 {
		t.Fatalf("a run never read: SinceRead %v (%v), want negative", st.SinceRead, err)
	}
	if _, _, err := lg.Read(ctx, "r", 0, 10, 0); err != nil {
		t.Fatal(err)
	}
	st, err := lg.Renew(ctx, l, time.Minute)
	if err != nil || st.SinceRead < 0 || st.SinceRead > time.Minute {
		t.Fatalf("after a read: SinceRead %v (%v), want a recent read", st.SinceRead, err)
	}
}

func largeEntry(t *testing.T, lg resume.Log) {
	ctx := t.Context()
	l := begin(t, lg, resume.RunMeta{RunID: "r", ThreadID: "t"})
	big := []byte(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"` + strings.Repeat("é\\n\\u0000<>&", 6000) + `"}`)
	if err := lg.Append(ctx, l, []resume.Entry{{Seq: 1, Data: big}}); err != nil {
		t.Fatal(err)
	}
	es, _, err := lg.Read(ctx, "r", 0, 10, 0)
	if err != nil || len(es) != 1 || !bytes.Equal(es[0].Data, big) {
		t.Fatalf("a %d-byte entry did not come back byte for byte: %v", len(big), err)
	}
}

// resumableRoute runs a resumable route on the log: a run, then a rejoin
// after its second event gets exactly the rest, with ids in order.
func resumableRoute(t *testing.T, lg resume.Log) {
	a := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		m, err := rc.Message()
		if err != nil {
			return agui.Outcome{}, err
		}
		for i := range 5 {
			if err := m.Delta("d" + strconv.Itoa(i) + " "); err != nil {
				return agui.Outcome{}, err
			}
		}
		return agui.Success(), m.End()
	})
	// The recorder cannot set write deadlines, which the handler would log.
	h, err := core.NewHandler(a, core.WithHandlerLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	rh, err := resume.New(h, lg, resume.WithDetach(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := rh.Close(context.Background()); err != nil {
			t.Error(err)
		}
	})
	mux := http.NewServeMux()
	mux.Handle("POST /chat", rh)
	mux.Handle("GET /chat/runs/{runId}", rh)

	req := httptest.NewRequest(http.MethodPost, "/chat", strings.NewReader(`{"threadId":"t","runId":"r","protocolVersion":"1.0","messages":[]}`))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, req)
	first := aguitest.ReadFrames(t, bytes.NewReader(rec.Body.Bytes()), 0)
	if rec.Code != http.StatusOK || len(first) != 9 { // RUN_STARTED, START, 5 deltas, END, RUN_FINISHED
		t.Fatalf("the run: %d, %d events:\n%s", rec.Code, len(first), rec.Body.String())
	}
	req = httptest.NewRequest(http.MethodGet, rec.Header().Get("Content-Location"), nil)
	req.Header.Set("Last-Event-ID", strconv.FormatUint(first[1].ID, 10))
	rec = httptest.NewRecorder()
	mux.ServeHTTP(rec, req)
	rest := aguitest.ReadFrames(t, bytes.NewReader(rec.Body.Bytes()), 0)
	if rec.Code != http.StatusOK || len(rest) != len(first)-2 {
		t.Fatalf("the rejoin after %d: %d, %d events:\n%s", first[1].ID, rec.Code, len(rest), rec.Body.String())
	}
	for i, f := range rest {
		if f != first[i+2] {
			t.Fatalf("rejoined event %d is %+v, the run's was %+v", i, f, first[i+2])
		}
	}
}

// dialects checks that every connection to a resumable route on the log
// gets what the plain route serves its own client, whichever client
// started the run: for each of a 1.1, a 1.0 and a pre-1.0 client
// starting a run, clients of all three join it by POST, rejoin it at the
// Content-Location they were answered, and rejoin it from a cursor.
func dialects(t *testing.T, lg resume.Log) {
	a := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		// What a 1.0 client reads otherwise (an encryptedValueType) and
		// what a pre-1.0 client does (a cancelled outcome, sent as
		// RUN_ERROR), with fixed ids so that two runs' streams compare.
		for _, ev := range []agui.Event{
			&agui.ReasoningEncryptedValue{Subtype: agui.EncryptedMessage, EntityID: "m1",
				EncryptedValue: "opaque", EncryptedValueType: "vendor/sealed"},
			&agui.TextMessageStart{MessageID: "m2", Role: agui.RoleAssistant},
			&agui.TextMessageContent{MessageID: "m2", Delta: "hi"},
			&agui.TextMessageEnd{MessageID: "m2"},
			&agui.MessagesSnapshot{Messages: []agui.Message{&agui.AssistantMessage{ID: "m3",
				Content: "thought", EncryptedValue: "opaque", EncryptedValueType: "vendor/sealed"}}},
		} {
			if err := rc.Emit(ev); err != nil {
				return agui.Outcome{}, err
			}
		}
		return agui.Cancelled(), nil
	})
	h, err := core.NewHandler(a, core.WithHandlerLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	rh, err := resume.New(h, lg, resume.WithDetach(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("POST /plain", h)
	mux.Handle("POST /chat", rh)
	mux.Handle("GET /chat/runs/{runId}", rh)
	srv := httptest.NewServer(mux)
	t.Cleanup(func() {
		srv.Close()
		if err := rh.Close(context.Background()); err != nil {
			t.Error(err)
		}
	})
	do := func(method, path, body string, cursor uint64) (string, []aguitest.Frame) {
		t.Helper()
		req, err := http.NewRequestWithContext(t.Context(), method, srv.URL+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		if cursor > 0 {
			req.Header.Set("Last-Event-ID", strconv.FormatUint(cursor, 10))
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		fs := aguitest.ReadFrames(t, resp.Body, 0)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s %s: %d", method, path, resp.StatusCode)
		}
		return resp.Header.Get("Content-Location"), fs
	}
	input := func(run, version string) string {
		v := ""
		if version != "" {
			v = `"protocolVersion":"` + version + `",`
		}
		return `{"threadId":"t",` + v + `"runId":"` + run + `","messages":[],"tools":[],"context":[]}`
	}
	data := func(fs []aguitest.Frame) []string {
		out := make([]string, len(fs))
		for i, f := range fs {
			out[i] = f.Data
		}
		return out
	}
	same := func(what string, got []aguitest.Frame, want []string) {
		t.Helper()
		if g := data(got); !slices.Equal(g, want) {
			t.Errorf("%s:\n got %q\nwant %q", what, g, want)
		}
	}
	clients := []struct{ name, version, location string }{
		{"1.1", agui.LatestProtocolVersion, "?protocolVersion=" + agui.LatestProtocolVersion},
		{"1.0", agui.ProtocolVersion, ""},
		{"0.x", "", "?downgrade=1"},
	}
	for _, starter := range clients {
		run := "from-" + starter.name
		plain := map[string][]string{} // what the plain route serves each client
		for _, c := range clients {
			_, fs := do(http.MethodPost, "/plain", input(run, c.version), 0)
			plain[c.name] = data(fs)
		}
		if all := strings.Join(plain["1.1"], "\n"); strings.Count(all, `"encryptedValueType"`) != 2 || !strings.Contains(all, `"outcome":{"type":"cancelled"}`) {
			t.Fatalf("the plain route's 1.1 stream:\n%s", all)
		}
		loc, fs := do(http.MethodPost, "/chat", input(run, starter.version), 0)
		same(starter.name+" starts", fs, plain[starter.name])
		if want := "/chat/runs/" + run + starter.location; loc != want {
			t.Errorf("%s starts: Content-Location %q, want %q", starter.name, loc, want)
		}
		for _, c := range clients {
			what := c.name + " in a run a " + starter.name + " client started"
			loc, fs := do(http.MethodPost, "/chat", input(run, c.version), 0)
			same(what+", joining by POST", fs, plain[c.name])
			if want := "/chat/runs/" + run + c.location; loc != want {
				t.Errorf("%s: Content-Location %q, want %q", what, loc, want)
			}
			_, fs = do(http.MethodGet, loc, "", 0)
			same(what+", rejoining at its Content-Location", fs, plain[c.name])
			if len(fs) > 1 {
				_, rest := do(http.MethodGet, loc, "", fs[0].ID)
				same(what+", rejoining after its first event", rest, plain[c.name][1:])
			}
		}
	}
}
