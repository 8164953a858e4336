package core_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
	"github.com/agui-go/agui/core"
)

// runBody is a 1.0 run request for thread t and run r.
func runBody(extra string) string {
	return `{"threadId":"t","runId":"r","protocolVersion":"1.0","messages":[{"id":"u1","role":"user","content":"hello there"}]` + extra + `}`
}

// legacyBody is the same request from a client older than 1.0.
func legacyBody() string {
	return `{"threadId":"t","runId":"r","messages":[],"tools":[],"context":[]}`
}

func post(ctx context.Context, t *testing.T, url, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func newServer(t *testing.T, h http.Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		srv.Close()
		http.DefaultClient.CloseIdleConnections()
	})
	return srv
}

func mustHandler[S any](t *testing.T, a core.Agent[S], opts ...core.HandlerOption) *core.Handler[S] {
	t.Helper()
	h, err := core.NewHandler(a, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func sayAgent(text string) core.Agent[core.NoState] {
	return core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		return agui.Success(), rc.Say(text)
	})
}

func TestHandlerStreams(t *testing.T) {
	t.Parallel()
	var sawInput atomic.Bool
	a := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		in, ok := core.InputFrom(ctx)
		sawInput.Store(ok && in.RunID == "r")
		return agui.Success(), rc.Say("hi")
	})
	srv := newServer(t, mustHandler(t, a))
	resp := post(context.Background(), t, srv.URL, runBody(""))
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status = %d", resp.StatusCode)
	}
	for k, want := range map[string]string{
		"Content-Type":      "text/event-stream",
		"Cache-Control":     "no-cache",
		"X-Accel-Buffering": "no",
	} {
		if got := resp.Header.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	evs := aguitest.ReadSSE(t, resp.Body)
	want := []agui.EventType{agui.TypeRunStarted, agui.TypeTextMessageStart, agui.TypeTextMessageContent, agui.TypeTextMessageEnd, agui.TypeRunFinished}
	if got := aguitest.Types(evs); !equalTypes(got, want) {
		t.Errorf("types = %v, want %v", got, want)
	}
	if rs := evs[0].(*agui.RunStarted); rs.ThreadID != "t" || rs.RunID != "r" || rs.ProtocolVersion != "1.0" {
		t.Errorf("RUN_STARTED = %+v", rs)
	}
	if !sawInput.Load() {
		t.Error("the agent's context does not carry the decoded input")
	}
}

func equalTypes(a, b []agui.EventType) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestHandlerNegotiatesProtobuf(t *testing.T) {
	t.Parallel()
	srv := newServer(t, mustHandler(t, sayAgent("hi")))
	for _, tc := range []struct {
		name, body, accept, want string
	}{
		{"1.0 client asking for protobuf", runBody(""), agui.FormatProto.ContentType(), agui.FormatProto.ContentType()},
		{"1.0 client asking for SSE", runBody(""), "text/event-stream", "text/event-stream"},
		// A 0.0.x decoder reads a cancelled outcome as success: never
		// protobuf for a client without protocolVersion.
		{"pre-1.0 client asking for protobuf", legacyBody(), agui.FormatProto.ContentType(), "text/event-stream"},
	} {
		req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(tc.body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", tc.accept)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got := resp.Header.Get("Content-Type")
		var evs []agui.Event
		if got == agui.ProtoContentType {
			evs = aguitest.ReadProto(t, resp.Body)
		} else {
			evs = aguitest.ReadSSE(t, resp.Body)
		}
		resp.Body.Close()
		if got != tc.want {
			t.Errorf("%s: Content-Type = %q, want %q", tc.name, got, tc.want)
		}
		if len(evs) != 5 || evs[4].Type() != agui.TypeRunFinished {
			t.Errorf("%s: stream %v", tc.name, aguitest.Types(evs))
		}
	}
}

// TestHandlerOutlivesWriteTimeout runs a stream five times longer than the
// server's WriteTimeout; the per-write deadline keeps it alive. It runs in
// real time: the deadline lives on a real socket, which testing/synctest
// cannot fake (network I/O is not durably blocking inside a bubble).
func TestHandlerOutlivesWriteTimeout(t *testing.T) {
	t.Parallel()
	const writeTimeout = 100 * time.Millisecond
	a := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		m, err := rc.Message()
		if err != nil {
			return agui.Outcome{}, err
		}
		tick := time.NewTicker(writeTimeout / 10)
		defer tick.Stop()
		end := time.Now().Add(5 * writeTimeout)
		for now := range tick.C {
			if now.After(end) {
				break
			}
			if err := m.Delta("."); err != nil {
				return agui.Outcome{}, err
			}
		}
		return agui.Success(), m.End()
	})
	srv := httptest.NewUnstartedServer(mustHandler(t, a, core.WithWriteTimeout(time.Second)))
	srv.Config.WriteTimeout = writeTimeout
	srv.Start()
	t.Cleanup(func() {
		srv.Close()
		http.DefaultClient.CloseIdleConnections()
	})
	resp := post(context.Background(), t, srv.URL, runBody(""))
	defer resp.Body.Close()
	start := time.Now()
	evs := aguitest.ReadSSE(t, resp.Body)
	if len(evs) == 0 || evs[len(evs)-1].Type() != agui.TypeRunFinished {
		t.Fatalf("stream cut after %v: %v", time.Since(start), aguitest.Types(evs))
	}
}

// TestHandlerConcurrentDisconnects aborts 100 concurrent runs at random
// points; every agent that started must see its context cancelled, and
// every handler must return.
func TestHandlerConcurrentDisconnects(t *testing.T) {
	t.Parallel()
	var started, cancelled atomic.Int64
	a := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		started.Add(1)
		m, err := rc.Message()
		// A delta per tick: fast enough that clients abort mid-stream,
		// slow enough that 100 agents do not saturate the machine.
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for err == nil {
			select {
			case <-tick.C:
				err = m.Delta("x")
			case <-ctx.Done():
				err = ctx.Err()
			}
		}
		<-ctx.Done() // the emit failed because the run was cancelled
		if agui.IsDisconnected(context.Cause(ctx)) {
			cancelled.Add(1)
		}
		return agui.Outcome{}, err
	})
	srv := newServer(t, mustHandler(t, a))
	rng := rand.New(rand.NewPCG(4, 100))
	var wg sync.WaitGroup
	for i := range 100 {
		after := rng.IntN(50) // events to read before aborting; 0 aborts at once
		closeBody := rng.IntN(2) == 0
		wg.Go(func() {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader(runBody("")))
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Errorf("run %d: %v", i, err)
				return
			}
			r := agui.NewSSEReader(resp.Body)
			for range after {
				if _, err := r.Next(); err != nil {
					t.Errorf("run %d: stream ended before the client aborted: %v", i, err)
					break
				}
			}
			if closeBody {
				resp.Body.Close()
			} else {
				cancel()
				resp.Body.Close()
			}
		})
	}
	wg.Wait()
	srv.Close() // waits for every handler to return
	if started.Load() == 0 || cancelled.Load() != started.Load() {
		t.Errorf("%d agents started, %d saw a DISCONNECTED cancellation", started.Load(), cancelled.Load())
	}
}

func TestHandlerGateShutdown(t *testing.T) {
	t.Parallel()
	var gate core.Gate
	running := make(chan struct{}, 3)
	a := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		if err := rc.Say("working"); err != nil {
			return agui.Outcome{}, err
		}
		running <- struct{}{}
		<-ctx.Done()
		return agui.Outcome{}, context.Cause(ctx)
	})
	srv := newServer(t, mustHandler(t, a, core.WithGate(&gate)))
	type result struct {
		evs []agui.Event
	}
	results := make(chan result, 3)
	for range 3 {
		go func() {
			resp := post(context.Background(), t, srv.URL, runBody(""))
			defer resp.Body.Close()
			results <- result{evs: aguitest.ReadSSE(t, resp.Body)}
		}()
	}
	for range 3 {
		<-running
	}
	if n := gate.Active(); n != 3 {
		t.Fatalf("gate.Active() = %d, want 3", n)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := gate.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown = %v", err)
	}
	for range 3 {
		r := <-results
		last, ok := r.evs[len(r.evs)-1].(*agui.RunError)
		if !ok || last.Code != string(agui.CodeCancelled) {
			t.Errorf("in-flight run ended with %v, want RUN_ERROR CANCELLED", aguitest.Types(r.evs))
		}
	}
	resp := post(context.Background(), t, srv.URL, runBody(""))
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || !bytes.Contains(body, []byte(`"code":"UNAVAILABLE"`)) {
		t.Errorf("after shutdown: %d %s, want 503 UNAVAILABLE", resp.StatusCode, body)
	}
}

func TestHandlerDowngradesForOlderClients(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	a := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		sub, err := rc.Subagent("helper")
		if err != nil {
			return agui.Outcome{}, err
		}
		if err := sub.Say("from the helper"); err != nil {
			return agui.Outcome{}, err
		}
		if err := sub.Finish(nil); err != nil {
			return agui.Outcome{}, err
		}
		return agui.Cancelled(), nil
	})
	srv := newServer(t, mustHandler(t, a, core.WithHandlerLogger(slog.New(slog.NewJSONHandler(&logs, nil)))))

	resp := post(context.Background(), t, srv.URL, legacyBody())
	evs := aguitest.ReadSSE(t, resp.Body)
	resp.Body.Close()
	for _, ev := range evs {
		switch ev.Type() {
		case agui.TypeSubagentStarted, agui.TypeSubagentFinished, agui.TypeSubagentError:
			t.Errorf("a pre-1.0 client got %s", ev.Type())
		}
	}
	if last, ok := evs[len(evs)-1].(*agui.RunError); !ok || last.Code != string(agui.CodeCancelled) {
		t.Errorf("cancelled outcome for a pre-1.0 client ended with %v, want RUN_ERROR CANCELLED", evs[len(evs)-1])
	}
	if n := strings.Count(logs.String(), "lossy downgrade"); n != 1 {
		t.Errorf("%d lossy-downgrade warnings, want 1:\n%s", n, logs.String())
	}

	// A 1.0 client gets the stream as emitted.
	resp = post(context.Background(), t, srv.URL, runBody(""))
	evs = aguitest.ReadSSE(t, resp.Body)
	resp.Body.Close()
	if evs[1].Type() != agui.TypeSubagentStarted {
		t.Errorf("a 1.0 client got %v, want SUBAGENT_STARTED second", aguitest.Types(evs))
	}
}

func TestHandlerPanickingAgent(t *testing.T) {
	t.Parallel()
	var calls atomic.Int64
	a := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		if calls.Add(1) == 1 {
			panic("agent bug")
		}
		return agui.Success(), rc.Say("fine")
	})
	srv := newServer(t, mustHandler(t, a, core.WithHandlerLogger(slog.New(slog.DiscardHandler))))
	resp := post(context.Background(), t, srv.URL, runBody(""))
	evs := aguitest.ReadSSE(t, resp.Body)
	resp.Body.Close()
	if last, ok := evs[len(evs)-1].(*agui.RunError); !ok || last.Code != string(agui.CodePanic) {
		t.Fatalf("panicking agent: %v, want RUN_ERROR AGENT_PANIC", aguitest.Types(evs))
	}
	resp = post(context.Background(), t, srv.URL, runBody(""))
	evs = aguitest.ReadSSE(t, resp.Body)
	resp.Body.Close()
	if evs[len(evs)-1].Type() != agui.TypeRunFinished {
		t.Errorf("the next run: %v, want RUN_FINISHED", aguitest.Types(evs))
	}
}

func TestHandlerLogsEachRun(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	srv := newServer(t, mustHandler(t, sayAgent("hi"), core.WithHandlerLogger(slog.New(slog.NewJSONHandler(&logs, nil)))))
	resp := post(context.Background(), t, srv.URL, runBody(""))
	aguitest.ReadSSE(t, resp.Body)
	resp.Body.Close()
	srv.Close() // the log line is written before the handler returns
	var line struct {
		Msg      string `json:"msg"`
		ThreadID string `json:"thread_id"`
		RunID    string `json:"run_id"`
		Outcome  string `json:"outcome"`
		Events   int    `json:"events"`
		Duration int64  `json:"duration"`
	}
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	if len(lines) != 1 {
		t.Fatalf("%d log lines, want 1: %s", len(lines), logs.String())
	}
	if err := json.Unmarshal([]byte(lines[0]), &line); err != nil {
		t.Fatal(err)
	}
	if line.Msg != "agui run" || line.ThreadID != "t" || line.RunID != "r" || line.Outcome != "success" || line.Events != 5 || line.Duration <= 0 {
		t.Errorf("log line = %+v", line)
	}
}

func TestHandlerStateMismatchIs422(t *testing.T) {
	t.Parallel()
	type counter struct{ N int }
	a := core.AgentFunc[counter](func(context.Context, *core.RunContext[counter]) (agui.Outcome, error) {
		t.Error("the agent ran on a state it cannot decode")
		return agui.Success(), nil
	})
	srv := newServer(t, mustHandler(t, a))
	resp := post(context.Background(), t, srv.URL, runBody(`,"state":[1,2]`))
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnprocessableEntity || resp.Header.Get("Content-Type") != "application/json" {
		t.Errorf("got %d %s, want a 422 JSON error", resp.StatusCode, body)
	}
}

// syncBuffer is a bytes.Buffer safe for the concurrent writes of a logger.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestHandlerIdleStreamKeepsDeadline leaves a stream silent for three
// times the write timeout, heartbeats off, over HTTP/1.1 and HTTP/2. On
// HTTP/2 a write deadline is a timer that resets the stream even when
// nothing is being written, so the handler must keep moving it while idle.
//
// Server, client and agent run in a synctest bubble over in-memory
// connections (HTTP/2 without TLS, with prior knowledge), so the server's
// WriteTimeout timers and the handler's refresh run on the bubble's fake
// clock: no scheduling delay on a loaded machine can make a refresh late,
// and the test takes no real time.
func TestHandlerIdleStreamKeepsDeadline(t *testing.T) {
	const timeout = time.Second
	for _, h2 := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			a := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
				m, err := rc.Message()
				if err != nil {
					return agui.Outcome{}, err
				}
				if err := m.Delta("before"); err != nil {
					return agui.Outcome{}, err
				}
				select { // silence, as while a model thinks
				case <-time.After(3 * timeout):
				case <-ctx.Done():
					return agui.Outcome{}, context.Cause(ctx)
				}
				if err := m.Delta(" after"); err != nil {
					return agui.Outcome{}, err
				}
				return agui.Success(), m.End()
			})
			h := mustHandler(t, a, core.WithWriteTimeout(timeout), core.WithHeartbeat(0),
				core.WithHandlerLogger(slog.New(slog.DiscardHandler)))
			ln := newPipeListener()
			srv := &http.Server{Handler: h, WriteTimeout: timeout, Protocols: new(http.Protocols)}
			tr := &http.Transport{
				DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) { return ln.dial() },
				Protocols:   new(http.Protocols),
			}
			if h2 {
				srv.Protocols.SetUnencryptedHTTP2(true)
				tr.Protocols.SetUnencryptedHTTP2(true)
			} else {
				srv.Protocols.SetHTTP1(true)
				tr.Protocols.SetHTTP1(true)
			}
			served := make(chan error, 1)
			go func() { served <- srv.Serve(ln) }()
			req, _ := http.NewRequest(http.MethodPost, "http://agent/", strings.NewReader(runBody("")))
			req.Header.Set("Content-Type", "application/json")
			resp, err := (&http.Client{Transport: tr}).Do(req)
			if err != nil {
				t.Fatal(err)
			}
			if h2 != (resp.ProtoMajor == 2) {
				t.Fatalf("served over %s", resp.Proto)
			}
			evs := aguitest.ReadSSE(t, resp.Body)
			resp.Body.Close()
			tr.CloseIdleConnections()
			if err := srv.Close(); err != nil {
				t.Fatal(err)
			}
			<-served
			if len(evs) == 0 || evs[len(evs)-1].Type() != agui.TypeRunFinished {
				t.Errorf("%s: idle stream cut: %v", resp.Proto, aguitest.Types(evs))
			}
		})
	}
}

// pipeListener is a net.Listener of in-memory connections (net.Pipe), on
// which blocking is durable inside a synctest bubble.
type pipeListener struct {
	conns  chan net.Conn
	closed chan struct{}
	once   sync.Once
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn), closed: make(chan struct{})}
}

// dial returns the client end of a new connection.
func (l *pipeListener) dial() (net.Conn, error) {
	client, server := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.closed:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.closed:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error {
	l.once.Do(func() { close(l.closed) })
	return nil
}

func (l *pipeListener) Addr() net.Addr { return pipeAddr{} }

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "pipe" }

// slowBody yields its first part at once and the second after wait: an
// upload slower than the server's WriteTimeout.
type slowBody struct {
	parts []string
	wait  time.Duration
	n     int
}

func (b *slowBody) Read(p []byte) (int, error) {
	if b.n == len(b.parts) {
		return 0, io.EOF
	}
	if b.n > 0 {
		<-time.After(b.wait)
	}
	n := copy(p, b.parts[b.n])
	b.n++
	return n, nil
}

// A server's WriteTimeout runs from the request's headers; the handler
// moves the deadline before reading the body, so an upload that outlasts
// it still gets its answer. Real sockets and a real server timeout, so
// real time: testing/synctest cannot fake network deadlines.
func TestHandlerAnswersAfterSlowUpload(t *testing.T) {
	t.Parallel()
	const writeTimeout = 50 * time.Millisecond
	srv := httptest.NewUnstartedServer(mustHandler(t, sayAgent("x"), core.WithWriteTimeout(time.Second)))
	srv.Config.WriteTimeout = writeTimeout
	srv.Start()
	t.Cleanup(func() {
		srv.Close()
		http.DefaultClient.CloseIdleConnections()
	})
	for name, body := range map[string]string{"refused": `{"runId":"r","messages":[]}`, "run": runBody("")} {
		half := len(body) / 2
		req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, srv.URL,
			&slowBody{parts: []string{body[:half], body[half:]}, wait: 3 * writeTimeout})
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		data, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Errorf("%s: reading the answer: %v (got %q)", name, err, data)
		}
		want := map[string]int{"refused": http.StatusUnprocessableEntity, "run": http.StatusOK}[name]
		if resp.StatusCode != want || len(data) == 0 {
			t.Errorf("%s: %d %q, want %d and a body", name, resp.StatusCode, data, want)
		}
	}
}
