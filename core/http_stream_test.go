package core

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agui-go/agui"
)

// swRecorder is a ResponseWriter that keeps each Write separately and counts
// flushes and deadline changes. It is safe for concurrent use so tests can
// inspect it while the handler runs.
type swRecorder struct {
	mu        sync.Mutex
	header    http.Header
	status    int
	writes    [][]byte
	flushes   int
	deadlines []time.Time
	// writesAtFlush[i] is len(writes) when flush i happened.
	writesAtFlush []int
	failWrites    bool
}

func newSWRecorder() *swRecorder { return &swRecorder{header: http.Header{}} }

// serveInBackground serves an empty run to h on a goroutine of its own,
// so a test can look at what was written while the agent still runs;
// done is closed when ServeHTTP returns.
func serveInBackground(h http.Handler) (rec *swRecorder, done <-chan struct{}) {
	rec = newSWRecorder()
	req, _ := http.NewRequest(http.MethodPost, "/", strings.NewReader(`{"threadId":"t","runId":"r","messages":[]}`))
	req.Header.Set("Content-Type", "application/json")
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		h.ServeHTTP(rec, req)
	}()
	return rec, finished
}

func (r *swRecorder) Header() http.Header { return r.header }

func (r *swRecorder) WriteHeader(status int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.status == 0 {
		r.status = status
	}
}

func (r *swRecorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.status == 0 {
		r.status = http.StatusOK
	}
	if r.failWrites {
		return 0, errors.New("broken pipe")
	}
	r.writes = append(r.writes, bytes.Clone(p))
	return len(p), nil
}

func (r *swRecorder) FlushError() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.flushes++
	r.writesAtFlush = append(r.writesAtFlush, len(r.writes))
	return nil
}

func (r *swRecorder) SetWriteDeadline(t time.Time) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.deadlines = append(r.deadlines, t)
	return nil
}

func (r *swRecorder) body() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return string(bytes.Join(r.writes, nil))
}

func (r *swRecorder) counts() (writes, flushes int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.writes), r.flushes
}

// swPlainWriter is a ResponseWriter with neither flush nor deadlines.
type swPlainWriter struct {
	header http.Header
	buf    bytes.Buffer
}

func (p *swPlainWriter) Header() http.Header         { return p.header }
func (p *swPlainWriter) Write(b []byte) (int, error) { return p.buf.Write(b) }
func (p *swPlainWriter) WriteHeader(int)             {}

// newTestStreamWriter returns a streamWriter over w with default settings and a
// cancel function recording its cause.
func newTestStreamWriter(w http.ResponseWriter, cfg *handlerConfig, format agui.Format) (*streamWriter, *swCancel) {
	cr := &swCancel{}
	return &streamWriter{
		w:       w,
		rc:      *http.NewResponseController(w),
		format:  format,
		cfg:     cfg,
		t:       &transport{InputReader: InputReader{cfg: *cfg}},
		cancel:  cr.cancel,
		in:      agui.NewInput("t", "r"),
		logCtx:  context.Background(),
		outcome: "disconnected",
	}, cr
}

type swCancel struct {
	mu    sync.Mutex
	cause error
}

func (c *swCancel) cancel(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cause == nil {
		c.cause = err
	}
}

func (c *swCancel) get() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cause
}

func swConfig(t *testing.T, opts ...HandlerOption) *handlerConfig {
	t.Helper()
	cfg, err := newHandlerConfig(opts)
	if err != nil {
		t.Fatal(err)
	}
	return &cfg
}

func swStarted() agui.Event {
	return &agui.RunStarted{ThreadID: "t", RunID: "r", ProtocolVersion: agui.ProtocolVersion}
}
func swDelta(s string) agui.Event {
	return &agui.TextMessageContent{MessageID: "m1", Delta: s}
}
func swFinished() agui.Event { return &agui.RunFinished{ThreadID: "t", RunID: "r"} }

// A burst already queued, the terminal event included, is one Write and
// no flush: the handler's return ends the response, which sends it.
func TestStreamWriterBurstIsOneWrite(t *testing.T) {
	rec := newSWRecorder()
	sw, _ := newTestStreamWriter(rec, swConfig(t), agui.FormatSSE)
	items := newSWQueue()
	evs := []agui.Event{swStarted(), &agui.TextMessageStart{MessageID: "m1", Role: agui.RoleAssistant}, swDelta("a"), swDelta("b"), &agui.TextMessageEnd{MessageID: "m1"}, swFinished()}
	for _, ev := range evs {
		items.send(ev)
	}
	items.end()
	sw.loop(context.Background(), swQueueOf(sw, items))

	writes, flushes := rec.counts()
	if writes != 1 {
		t.Errorf("writes = %d, want 1 for a burst already queued", writes)
	}
	if flushes != 0 {
		t.Errorf("flushes = %d, want none for a burst ending the run (the response's end sends it)", flushes)
	}
	var want []byte
	for _, ev := range evs {
		want, _ = agui.AppendSSE(want, ev)
	}
	if got := bytes.Join(rec.writes, nil); !bytes.Equal(got, want) {
		t.Errorf("written %q, want every event's frame in order %q", got, want)
	}
	if sw.events != len(evs) || sw.outcome != "success" {
		t.Errorf("events, outcome = %d, %q; want %d, success", sw.events, sw.outcome, len(evs))
	}
}

func TestStreamWriterLongBurstWritesWholeFramesInChunks(t *testing.T) {
	rec := newSWRecorder()
	sw, _ := newTestStreamWriter(rec, swConfig(t), agui.FormatSSE)
	delta := strings.Repeat("x", 100)
	n := 3 * writeChunk / len(delta)
	evs := []agui.Event{swStarted(), &agui.TextMessageStart{MessageID: "m1", Role: agui.RoleAssistant}}
	for range n {
		evs = append(evs, swDelta(delta))
	}
	evs = append(evs, &agui.TextMessageEnd{MessageID: "m1"}, swFinished())
	items := newSWQueue()
	for _, ev := range evs {
		items.send(ev)
	}
	items.end()
	sw.loop(context.Background(), swQueueOf(sw, items))

	writes, flushes := rec.counts()
	total := len(bytes.Join(rec.writes, nil))
	if lo, hi := total/(writeChunk+200), total/writeChunk+1; writes < lo || writes > hi {
		t.Errorf("writes = %d, want %d to %d for %d bytes in chunks of %d", writes, lo, hi, total, writeChunk)
	}
	if flushes != 0 {
		t.Errorf("flushes = %d, want none for a burst ending the run", flushes)
	}
	frames := 0
	for i, w := range rec.writes {
		if !bytes.HasPrefix(w, []byte("data: ")) || !bytes.HasSuffix(w, []byte("\n\n")) {
			t.Errorf("write %d does not hold whole frames: starts %q, ends %q", i, w[:min(len(w), 10)], w[max(0, len(w)-10):])
		}
		if len(w) > writeChunk+200 {
			t.Errorf("write %d is %d bytes, want at most a chunk and a frame", i, len(w))
		}
		frames += bytes.Count(w, []byte("\n\n"))
	}
	if frames != len(evs) || sw.events != len(evs) {
		t.Errorf("frames, events = %d, %d; want %d", frames, sw.events, len(evs))
	}
	if sw.buf != nil || sw.bufp != nil {
		t.Error("the stream still holds its write buffer after the last flush")
	}
}

func TestStreamWriterTrickleFlushesEachEvent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := newSWRecorder()
		sw, _ := newTestStreamWriter(rec, swConfig(t), agui.FormatSSE)
		items := newSWQueue()
		done := make(chan struct{})
		go func() {
			defer close(done)
			sw.loop(context.Background(), swQueueOf(sw, items))
		}()
		for i, ev := range []agui.Event{swStarted(), swDelta("a"), swDelta("b")} {
			items.send(ev)
			synctest.Wait()
			if w, f := rec.counts(); w != i+1 || f != i+1 {
				t.Fatalf("after event %d: writes, flushes = %d, %d; want %d, %d", i, w, f, i+1, i+1)
			}
		}
		items.end()
		<-done
	})
}

func TestStreamWriterCoalescesWhatIsQueued(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := newSWRecorder()
		sw, _ := newTestStreamWriter(rec, swConfig(t), agui.FormatSSE)
		items := newSWQueue()
		done := make(chan struct{})
		items.send(swStarted())
		go func() {
			defer close(done)
			sw.loop(context.Background(), swQueueOf(sw, items))
		}()
		synctest.Wait()
		// Queued together, as an agent's burst is: sent one by one, the
		// writer may wake for the first before the others arrive.
		items.send(swDelta("a"), swDelta("b"), swDelta("c"))
		synctest.Wait()
		if w, f := rec.counts(); w != 2 || f != 2 {
			t.Fatalf("writes, flushes = %d, %d; want 2, 2 (three queued deltas share one write and one flush)", w, f)
		}
		items.end()
		<-done
	})
}

func TestStreamWriterHeaders(t *testing.T) {
	for _, tc := range []struct {
		format agui.Format
		want   string
	}{{agui.FormatSSE, "text/event-stream"}, {agui.FormatProto, agui.FormatProto.ContentType()}} {
		rec := newSWRecorder()
		sw, _ := newTestStreamWriter(rec, swConfig(t), tc.format)
		items := newSWQueue()
		items.send(swStarted())
		items.end()
		sw.loop(context.Background(), swQueueOf(sw, items))
		h := rec.Header()
		if got := h.Get("Content-Type"); got != tc.want {
			t.Errorf("Content-Type = %q, want %q", got, tc.want)
		}
		if got := h.Get("Cache-Control"); got != "no-cache" {
			t.Errorf("Cache-Control = %q, want no-cache", got)
		}
		if got := h.Get("X-Accel-Buffering"); got != "no" {
			t.Errorf("X-Accel-Buffering = %q, want no", got)
		}
		if h.Get("Connection") != "" {
			t.Error("Connection header set; it is wrong on HTTP/2 and useless on HTTP/1.1")
		}
	}
}

func TestStreamWriterHeartbeat(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := newSWRecorder()
		sw, _ := newTestStreamWriter(rec, swConfig(t, WithHeartbeat(15*time.Second)), agui.FormatSSE)
		items := newSWQueue()
		done := make(chan struct{})
		go func() {
			defer close(done)
			sw.loop(context.Background(), swQueueOf(sw, items))
		}()
		items.send(swStarted())
		time.Sleep(15*time.Second - time.Millisecond)
		synctest.Wait()
		if strings.Contains(rec.body(), ": ping") {
			t.Fatal("heartbeat before the stream was idle for 15 s")
		}
		time.Sleep(time.Millisecond)
		synctest.Wait()
		if got := strings.Count(rec.body(), agui.SSEHeartbeat); got != 1 {
			t.Fatalf("%d heartbeats after 15 s idle, want 1; body %q", got, rec.body())
		}
		if items.trims.Load() != 1 {
			t.Errorf("the run was trimmed %d times after 15 s idle, want once", items.trims.Load())
		}
		// An event resets the idle clock.
		time.Sleep(10 * time.Second)
		items.send(swDelta("x"))
		time.Sleep(14 * time.Second)
		synctest.Wait()
		if got := strings.Count(rec.body(), agui.SSEHeartbeat); got != 1 {
			t.Fatalf("%d heartbeats 14 s after an event, want still 1", got)
		}
		time.Sleep(time.Second)
		synctest.Wait()
		if got := strings.Count(rec.body(), agui.SSEHeartbeat); got != 2 {
			t.Fatalf("%d heartbeats 15 s after an event, want 2", got)
		}
		_, flushes := rec.counts()
		if flushes != 4 {
			t.Errorf("flushes = %d, want 4 (two events, two heartbeats)", flushes)
		}
		items.end()
		<-done
	})
}

func TestStreamWriterNoHeartbeatOnProtobuf(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := newSWRecorder()
		sw, _ := newTestStreamWriter(rec, swConfig(t), agui.FormatProto)
		items := newSWQueue()
		done := make(chan struct{})
		go func() {
			defer close(done)
			sw.loop(context.Background(), swQueueOf(sw, items))
		}()
		items.send(swStarted())
		time.Sleep(time.Minute)
		synctest.Wait()
		if w, _ := rec.counts(); w != 1 {
			t.Errorf("writes = %d after a minute idle on protobuf, want 1 (no heartbeat)", w)
		}
		// The deadline is still kept ahead while idle (HTTP/2 would
		// otherwise reset the stream).
		rec.mu.Lock()
		last := rec.deadlines[len(rec.deadlines)-1]
		rec.mu.Unlock()
		if !last.After(time.Now()) {
			t.Errorf("write deadline %v not ahead of now %v on an idle stream", last, time.Now())
		}
		items.end()
		<-done
	})
}

func TestStreamWriterExtendsWriteDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := newSWRecorder()
		sw, _ := newTestStreamWriter(rec, swConfig(t, WithWriteTimeout(5*time.Second), WithHeartbeat(0)), agui.FormatSSE)
		items := newSWQueue()
		done := make(chan struct{})
		go func() {
			defer close(done)
			sw.loop(context.Background(), swQueueOf(sw, items))
		}()
		for range 3 {
			items.send(swDelta("x"))
			synctest.Wait()
			rec.mu.Lock()
			got := rec.deadlines[len(rec.deadlines)-1]
			rec.mu.Unlock()
			if want := time.Now().Add(5 * time.Second); !got.Equal(want) {
				t.Fatalf("deadline before write = %v, want now+5s = %v", got, want)
			}
			time.Sleep(time.Hour) // far past any single deadline
		}
		items.end()
		<-done
	})
}

func TestStreamWriterZeroWriteTimeoutClearsDeadlineOnce(t *testing.T) {
	rec := newSWRecorder()
	sw, _ := newTestStreamWriter(rec, swConfig(t, WithWriteTimeout(0)), agui.FormatSSE)
	items := newSWQueue()
	items.send(swStarted())
	items.send(swDelta("a"))
	items.send(swFinished())
	items.end()
	sw.loop(context.Background(), swQueueOf(sw, items))
	if len(rec.deadlines) != 1 || !rec.deadlines[0].IsZero() {
		t.Errorf("deadlines = %v, want one zero (cleared)", rec.deadlines)
	}
}

func TestStreamWriterUnsupportedFeaturesLoggedOnce(t *testing.T) {
	var logs bytes.Buffer
	cfg := swConfig(t, WithHandlerLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	var tr *transport
	for range 2 {
		w := &swPlainWriter{header: http.Header{}}
		sw, _ := newTestStreamWriter(w, cfg, agui.FormatSSE)
		if tr == nil {
			tr = sw.t
		}
		sw.t = tr
		items := newSWQueue()
		items.send(swStarted())
		items.end() // without a terminal event, so that the writer flushes
		sw.loop(context.Background(), swQueueOf(sw, items))
		if !strings.Contains(w.buf.String(), "RUN_STARTED") {
			t.Fatalf("stream not written through a plain writer: %q", w.buf.String())
		}
	}
	if n := strings.Count(logs.String(), "level=WARN"); n != 2 {
		t.Errorf("%d warnings over two runs, want 2 (flush, deadline), once each:\n%s", n, logs.String())
	}
}

func TestStreamWriterWriteFailureCancelsRun(t *testing.T) {
	rec := newSWRecorder()
	rec.failWrites = true
	sw, cr := newTestStreamWriter(rec, swConfig(t), agui.FormatSSE)
	items := newSWQueue()
	items.send(swStarted())
	items.send(swDelta("a"))
	sw.loop(context.Background(), swQueueOf(sw, items)) // returns without items being closed
	if !agui.IsDisconnected(cr.get()) {
		t.Errorf("cancel cause = %v, want DISCONNECTED", cr.get())
	}
	if sw.outcome != "disconnected" || sw.code != string(agui.CodeDisconnected) {
		t.Errorf("outcome, code = %q, %q", sw.outcome, sw.code)
	}
}

func TestStreamWriterRequestDoneCancelsRun(t *testing.T) {
	rec := newSWRecorder()
	sw, cr := newTestStreamWriter(rec, swConfig(t), agui.FormatSSE)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	sw.loop(ctx, swQueueOf(sw, newSWQueue()))
	if !agui.IsDisconnected(cr.get()) {
		t.Errorf("cancel cause = %v, want DISCONNECTED", cr.get())
	}
}

func TestStreamWriterRefusedBeforeStart(t *testing.T) {
	rec := newSWRecorder()
	tr := &transport{InputReader: InputReader{cfg: *swConfig(t, WithHandlerLogger(slog.New(slog.DiscardHandler)))}}
	req, _ := http.NewRequest(http.MethodPost, "/", nil)
	tr.stream(context.Background(), rec, req, agui.NewInput("t", "r"),
		swRefusingRun{&agui.InputError{Field: "runId", Reason: "required"}}, nil)
	if rec.status != http.StatusUnprocessableEntity || !strings.Contains(rec.body(), `"runId"`) {
		t.Fatalf("status %d, body %s; want a 422 on runId", rec.status, rec.body())
	}
	if strings.Contains(rec.body(), "data:") {
		t.Errorf("events written before a refusal: %s", rec.body())
	}
}

// swRefusingRun is a run whose start fails.
type swRefusingRun struct{ err error }

func (swRefusingRun) Cancel(error) {}
func (f swRefusingRun) begin(context.Context, func(agui.Event) bool) (runQueue, error) {
	return nil, f.err
}

// swQueue feeds a streamWriter as the run's driver does from the run's
// queue: the test queues events with send and closes the queue with end.
type swQueue struct {
	mu     sync.Mutex
	items  []agui.Event
	closed bool
	wake   chan struct{}
	// Used by the consumer's goroutine only.
	yield func(agui.Event) bool
	over  bool
	trims atomic.Int32 // calls of trim
}

func newSWQueue() *swQueue { return &swQueue{wake: make(chan struct{}, 1)} }

// swQueueOf makes sw the consumer of q.
func swQueueOf(sw *streamWriter, q *swQueue) *swQueue {
	q.yield = sw.handle
	return q
}

// send queues evs at once: the consumer, woken once, finds them all.
func (q *swQueue) send(evs ...agui.Event) {
	q.mu.Lock()
	q.items = append(q.items, evs...)
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

func (q *swQueue) end() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	close(q.wake)
}

func (q *swQueue) Ready() <-chan struct{} {
	if q.over {
		return nil
	}
	return q.wake
}

func (q *swQueue) Take() int {
	q.mu.Lock()
	evs, closed := q.items, q.closed
	q.items = nil
	q.mu.Unlock()
	for i, ev := range evs {
		if !q.yield(ev) {
			q.over = true
			return i + 1
		}
	}
	if closed {
		q.over = true
	}
	return len(evs)
}

func (q *swQueue) Close() {}

func (q *swQueue) Abandon() {}

func (q *swQueue) Trim() { q.trims.Add(1) }

func (q *swQueue) follow() {}

// swFakeRun is a runHandle whose events the test sends, and which ends with
// RUN_ERROR carrying the cancel cause's code when cancelled, as the runner
// does.
type swFakeRun struct {
	events    chan agui.Event
	cancelled chan struct{}
	once      sync.Once
	cause     error
	exited    chan struct{}
}

func newSWFakeRun() *swFakeRun {
	return &swFakeRun{events: make(chan agui.Event), cancelled: make(chan struct{}), exited: make(chan struct{})}
}

func (f *swFakeRun) Cancel(cause error) {
	f.once.Do(func() {
		f.cause = cause
		close(f.cancelled)
	})
}

// begin starts the fake's producer, which plays the agent's goroutine.
func (f *swFakeRun) begin(_ context.Context, yield func(agui.Event) bool) (runQueue, error) {
	q := &swFakeQueue{swQueue: newSWQueue(), f: f, producer: make(chan struct{})}
	q.yield = yield
	go func() {
		defer close(q.producer)
		defer q.end()
		for {
			select {
			case ev, ok := <-f.events:
				if !ok {
					return
				}
				q.send(ev)
			case <-f.cancelled:
				q.send(&agui.RunError{Message: f.cause.Error(), Code: string(agui.CodeOf(f.cause))})
				return
			}
		}
	}()
	return q, nil
}

type swFakeQueue struct {
	*swQueue
	f        *swFakeRun
	producer chan struct{} // closed when the producer has returned
}

// close cancels the fake as a consumer leaving does, and joins its
// producer.
func (q *swFakeQueue) Close() {
	q.f.Cancel(errClientGone)
	<-q.producer
	close(q.f.exited)
}

func (q *swFakeQueue) Abandon() { q.Close() }

func TestTransportDisconnectCancelsAndJoins(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var logs bytes.Buffer
		tr := &transport{InputReader: InputReader{cfg: *swConfig(t, WithHandlerLogger(slog.New(slog.NewJSONHandler(&logs, nil))))}}
		rec := newSWRecorder()
		ctx, cancel := context.WithCancel(context.Background())
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "/", nil)
		run := newSWFakeRun()
		done := make(chan struct{})
		go func() {
			defer close(done)
			tr.stream(ctx, rec, req, agui.NewInput("t", "r"), run, nil)
		}()
		run.events <- swStarted()
		synctest.Wait()
		cancel() // the client goes away
		<-done
		select {
		case <-run.exited:
		default:
			t.Fatal("stream returned before the run's sequence ended")
		}
		if !agui.IsDisconnected(run.cause) {
			t.Errorf("run cancelled with %v, want DISCONNECTED", run.cause)
		}
		if !strings.Contains(logs.String(), `"outcome":"disconnected"`) {
			t.Errorf("log line %s, want outcome disconnected", logs.String())
		}
	})
}

func TestTransportLogLine(t *testing.T) {
	var logs bytes.Buffer
	tr := &transport{InputReader: InputReader{cfg: *swConfig(t, WithHandlerLogger(slog.New(slog.NewJSONHandler(&logs, nil))))}}
	rec := newSWRecorder()
	req, _ := http.NewRequest(http.MethodPost, "/", nil)
	run := newSWFakeRun()
	in := agui.NewInput("thread-9", "run-7")
	done := make(chan struct{})
	go func() {
		defer close(done)
		tr.stream(context.Background(), rec, req, in, run, nil)
	}()
	run.events <- &agui.RunStarted{ThreadID: "thread-9", RunID: "run-7"}
	run.events <- &agui.RunError{Message: "boom", Code: string(agui.CodeAgent)}
	close(run.events)
	<-done
	line := logs.String()
	for _, want := range []string{`"msg":"agui run"`, `"thread_id":"thread-9"`, `"run_id":"run-7"`, `"outcome":"error"`, `"code":"AGENT_ERROR"`, `"events":2`, `"duration":`} {
		if !strings.Contains(line, want) {
			t.Errorf("log line %s lacks %s", line, want)
		}
	}
	if n := strings.Count(line, "\n"); n != 1 {
		t.Errorf("%d log lines, want 1", n)
	}
}

func TestStreamWriterUnencodableEvents(t *testing.T) {
	rec := newSWRecorder()
	sw, cr := newTestStreamWriter(rec, swConfig(t, WithHandlerLogger(slog.New(slog.DiscardHandler))), agui.FormatSSE)
	items := newSWQueue()
	items.send(swStarted())
	items.send(&agui.Custom{Name: "bad", Value: make(chan int)})
	items.send(&agui.RunFinished{ThreadID: "t", RunID: "r", Result: func() {}})
	items.end()
	sw.loop(context.Background(), swQueueOf(sw, items))
	if agui.CodeOf(cr.get()) != agui.CodeSerialization {
		t.Errorf("run cancelled with %v, want SERIALIZATION", cr.get())
	}
	body := rec.body()
	if strings.Contains(body, `"CUSTOM"`) {
		t.Errorf("an unencodable event was written: %q", body)
	}
	// The RUN_FINISHED after a dropped event is replaced before it is
	// encoded: the run cannot have succeeded.
	if !strings.HasSuffix(body, `{"type":"RUN_ERROR","message":"an event could not be encoded","code":"SERIALIZATION"}`+"\n\n") {
		t.Errorf("stream does not end with a SERIALIZATION RUN_ERROR: %q", body)
	}
	if sw.outcome != "error" || sw.code != string(agui.CodeSerialization) {
		t.Errorf("outcome, code = %q, %q", sw.outcome, sw.code)
	}
}

func TestHandlerFlushesRunStartedBeforeTheAgentEmits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		a := AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
			<-release
			return agui.Success(), nil
		})
		h, err := NewHandler(a, WithHandlerLogger(slog.New(slog.DiscardHandler)))
		if err != nil {
			t.Fatal(err)
		}
		rec, done := serveInBackground(h)
		synctest.Wait()
		if _, flushes := rec.counts(); flushes != 0 {
			t.Errorf("%d flushes before the first burst's wait is over, want none", flushes)
		}
		time.Sleep(firstBurstWait)
		synctest.Wait()
		if _, flushes := rec.counts(); flushes != 1 || !strings.Contains(rec.body(), "RUN_STARTED") {
			t.Errorf("before the agent emits: %d flushes, body %q; want RUN_STARTED flushed", flushes, rec.body())
		}
		close(release)
		<-done
		if !strings.Contains(rec.body(), "RUN_FINISHED") {
			t.Errorf("body %q lacks RUN_FINISHED", rec.body())
		}
	})
}

// A short run (an agent that emits and returns at once) goes out in one
// Write, RUN_STARTED to RUN_FINISHED, and no flush: the writer waits for
// the agent's first burst, and the response's end sends the last one.
func TestHandlerShortRunIsOneWrite(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a := AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
			return agui.Success(), rc.Say("hello")
		})
		h, err := NewHandler(a, WithHandlerLogger(slog.New(slog.DiscardHandler)))
		if err != nil {
			t.Fatal(err)
		}
		rec := newSWRecorder()
		req, _ := http.NewRequest(http.MethodPost, "/", strings.NewReader(`{"threadId":"t","runId":"r","messages":[]}`))
		req.Header.Set("Content-Type", "application/json")
		h.ServeHTTP(rec, req)
		writes, flushes := rec.counts()
		body := rec.body()
		if writes != 1 || flushes != 0 || !strings.HasPrefix(body, `data: {"type":"RUN_STARTED"`) || !strings.Contains(body, "RUN_FINISHED") {
			t.Errorf("writes, flushes = %d, %d, body %q; want 1, 0 and the whole run", writes, flushes, body)
		}
	})
}

// A first burst that fills the run's queue wakes the writer without
// waiting for the agent's end or firstBurstWait: the agent must not
// block on a queue nobody takes from.
func TestHandlerFirstBurstFillingTheQueueIsWritten(t *testing.T) {
	for _, size := range []int{0, 16} {
		t.Run("queue "+strconv.Itoa(size), func(t *testing.T) { testFirstBurstFillingTheQueue(t, size) })
	}
}

func testFirstBurstFillingTheQueue(t *testing.T, size int) {
	synctest.Test(t, func(t *testing.T) {
		const n = 200
		release := make(chan struct{})
		a := AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
			m, err := rc.Message()
			if err != nil {
				return agui.Outcome{}, err
			}
			for i := range n {
				if err := m.Delta("d" + strconv.Itoa(i) + " "); err != nil {
					return agui.Outcome{}, err
				}
			}
			<-release
			return agui.Success(), m.End()
		})
		h, err := NewHandler(a, WithHandlerLogger(slog.New(slog.DiscardHandler)), WithQueueSize(size))
		if err != nil {
			t.Fatal(err)
		}
		rec, done := serveInBackground(h)
		synctest.Wait()
		if body := rec.body(); !strings.Contains(body, "d"+strconv.Itoa(n-1)+" ") {
			t.Errorf("the agent's %d deltas are not all written while it waits (time has not moved): %d bytes", n, len(body))
		}
		close(release)
		<-done
	})
}

// A client that leaves while the writer waits for the agent's first burst
// cancels the run at once, without waiting for firstBurstWait.
func TestHandlerHangUpDuringFirstBurstCancelsAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cause := make(chan error, 1)
		a := AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
			<-ctx.Done()
			cause <- context.Cause(ctx)
			return agui.Outcome{}, ctx.Err()
		})
		h, err := NewHandler(a, WithHandlerLogger(slog.New(slog.DiscardHandler)))
		if err != nil {
			t.Fatal(err)
		}
		ctx, hangUp := context.WithCancel(context.Background())
		rec := newSWRecorder()
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "/", strings.NewReader(`{"threadId":"t","runId":"r","messages":[]}`))
		req.Header.Set("Content-Type", "application/json")
		done := make(chan struct{})
		go func() {
			defer close(done)
			h.ServeHTTP(rec, req)
		}()
		synctest.Wait()
		start := time.Now()
		hangUp()
		synctest.Wait()
		select {
		case err := <-cause:
			if !agui.IsDisconnected(err) {
				t.Errorf("the run was cancelled with %v, want DISCONNECTED", err)
			}
		default:
			t.Fatal("the agent was not cancelled when the client left")
		}
		<-done
		if d := time.Since(start); d != 0 {
			t.Errorf("the handler returned %v after the hang-up, want at once", d)
		}
	})
}
