package remote_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/client"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/remote"
)

// serve serves a on a test server and returns its URL.
func serve[S any](t *testing.T, a core.Agent[S]) string {
	t.Helper()
	h, err := core.NewHandler(a)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// proxy returns the remote agent at url.
func proxy(t *testing.T, url string) *remote.Agent {
	t.Helper()
	c, err := client.New(url, client.WithWarnings(func(w client.Warning) { t.Errorf("warning: %v", w) }))
	if err != nil {
		t.Fatal(err)
	}
	p, err := remote.New(c)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// events runs the agent at url through the client and returns the
// events' JSON, without the timestamps each server stamps.
func events(t *testing.T, url string, in *agui.RunAgentInput) []string {
	t.Helper()
	c, err := client.New(url)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for ev, err := range c.Events(t.Context(), in, nil) {
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		delete(m, "timestamp")
		b, _ = json.Marshal(m)
		out = append(out, string(b))
	}
	return out
}

// busy emits one of most kinds of event, with ids of its own.
var busy = core.AgentFunc[json.RawMessage](func(ctx context.Context, rc *core.RunContext[json.RawMessage]) (agui.Outcome, error) {
	for _, ev := range []agui.Event{
		&agui.StepStarted{StepName: "plan"},
		&agui.ReasoningStart{MessageID: "r1"},
		&agui.ReasoningMessageStart{MessageID: "r1"},
		&agui.ReasoningMessageContent{MessageID: "r1", Delta: "hmm"},
		&agui.ReasoningMessageEnd{MessageID: "r1"},
		&agui.ReasoningEnd{MessageID: "r1"},
		&agui.TextMessageStart{MessageID: "m1", Role: "assistant"},
		&agui.TextMessageContent{MessageID: "m1", Delta: "Hello"},
		&agui.TextMessageEnd{MessageID: "m1"},
		&agui.ToolCallStart{ToolCallID: "c1", ToolCallName: "search", ParentMessageID: "m1"},
		&agui.ToolCallArgs{ToolCallID: "c1", Delta: `{"q":"x"}`},
		&agui.ToolCallEnd{ToolCallID: "c1"},
		&agui.ToolCallResult{MessageID: "t1", ToolCallID: "c1", Content: agui.TextContent("found")},
		&agui.StateSnapshot{Snapshot: map[string]any{"n": 1}},
		&agui.StateDelta{Delta: []agui.PatchOp{{Op: "replace", Path: "/n", Value: 2}}},
		&agui.Custom{Name: "note", Value: "v"},
		&agui.StepFinished{StepName: "plan"},
	} {
		if err := rc.Emit(ev); err != nil {
			return agui.Outcome{}, err
		}
	}
	rc.SetResult(map[string]any{"done": true})
	return agui.Success(), nil
})

// The proxied stream is the remote's: every event between RUN_STARTED
// and RUN_FINISHED passes through unchanged, and the terminal event
// carries the remote's outcome and result. The input's ids reach the
// remote, so even the runner's own events match.
func TestPassThrough(t *testing.T) {
	remoteURL := serve(t, busy)
	proxyURL := serve(t, proxy(t, remoteURL))
	in := agui.NewInput("thread-1", "run-1")
	in.Messages = []agui.Message{&agui.UserMessage{ID: "u1", Content: agui.TextContent("hi")}}
	direct := events(t, remoteURL, in)
	proxied := events(t, proxyURL, in)
	if len(direct) != 19 {
		t.Fatalf("direct run: %d events, want 19:\n%s", len(direct), strings.Join(direct, "\n"))
	}
	if strings.Join(proxied, "\n") != strings.Join(direct, "\n") {
		t.Errorf("proxied events differ:\n%s\nwant\n%s", strings.Join(proxied, "\n"), strings.Join(direct, "\n"))
	}
}

// Cancelling the proxied run (here, its client going away) cancels the
// remote request: the remote agent sees its context end.
func TestCancelReachesRemote(t *testing.T) {
	started, cancelled := make(chan struct{}), make(chan struct{})
	remoteURL := serve(t, core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		if err := rc.Say("working"); err != nil {
			return agui.Outcome{}, err
		}
		close(started)
		<-ctx.Done()
		close(cancelled)
		return agui.Outcome{}, ctx.Err()
	}))
	proxyURL := serve(t, proxy(t, remoteURL))
	c, err := client.New(proxyURL)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var last error
	for ev, err := range c.Events(ctx, agui.NewInput("t", "r"), nil) {
		if err != nil {
			last = err
			break
		}
		if ev.Type() == agui.TypeTextMessageEnd {
			<-started
			cancel() // the proxy's client goes away
		}
	}
	if !agui.IsCancelled(last) {
		t.Errorf("client error = %v, want CANCELLED", last)
	}
	select {
	case <-cancelled:
	case <-time.After(10 * time.Second):
		t.Fatal("the remote agent's context was not cancelled")
	}
}

// A Stop (here the runner's Cancel, which a resumable route's DELETE
// calls) cancels the remote request too.
func TestStopReachesRemote(t *testing.T) {
	started, cancelled := make(chan struct{}), make(chan struct{})
	remoteURL := serve(t, core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		if err := rc.Say("working"); err != nil {
			return agui.Outcome{}, err
		}
		close(started)
		<-ctx.Done()
		close(cancelled)
		return agui.Outcome{}, ctx.Err()
	}))
	r, err := core.NewRunner(proxy(t, remoteURL), agui.NewInput("t", "r"))
	if err != nil {
		t.Fatal(err)
	}
	var last agui.Event
	for ev, err := range r.Events(t.Context()) {
		if err != nil {
			t.Fatal(err)
		}
		last = ev
		if ev.Type() == agui.TypeTextMessageEnd {
			<-started
			r.Cancel(errors.New("stopped by the user"))
		}
	}
	select {
	case <-cancelled:
	case <-time.After(10 * time.Second):
		t.Fatal("the remote agent's context was not cancelled")
	}
	if re, ok := last.(*agui.RunError); !ok || re.Code != string(agui.CodeCancelled) {
		t.Errorf("the run ended with %#v, want RUN_ERROR CANCELLED", last)
	}
}

// runError runs p in process and returns its RUN_ERROR.
func runError(t *testing.T, p *remote.Agent) *agui.RunError {
	t.Helper()
	var last agui.Event
	for ev, err := range core.Run(t.Context(), p, agui.NewInput("t", "r")) {
		if err != nil {
			t.Fatal(err)
		}
		last = ev
	}
	re, ok := last.(*agui.RunError)
	if !ok {
		t.Fatalf("last event %T, want RUN_ERROR", last)
	}
	return re
}

// sse answers with evs as SSE frames and ends the response.
func sse(evs ...agui.Event) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", agui.SSEContentType)
		var b []byte
		for _, ev := range evs {
			var err error
			if b, err = agui.AppendSSE(b, ev); err != nil {
				panic(err)
			}
		}
		_, _ = w.Write(b)
	}
}

// Each failure of the remote ends the run with a RUN_ERROR of its code,
// naming what the remote said.
func TestRemoteFailures(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	for _, tc := range []struct {
		name     string
		url      func(t *testing.T) string
		code     agui.Code
		contains string
	}{
		{"refused", func(t *testing.T) string {
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusUnauthorized)
				_, _ = w.Write([]byte(`{"error":"no token","code":"UNAUTHENTICATED"}`))
			})
			srv := httptest.NewServer(h)
			t.Cleanup(srv.Close)
			return srv.URL
		}, remote.CodeRefused, "status 401: UNAUTHENTICATED: no token"},
		{"run error", func(t *testing.T) string {
			return serve(t, core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
				return agui.Outcome{}, agui.NewError("QUOTA", "out of tokens")
			}))
		}, remote.CodeRunError, "QUOTA: out of tokens"},
		{"cut stream", func(t *testing.T) string {
			srv := httptest.NewServer(sse(&agui.RunStarted{ThreadID: "t", RunID: "r"}, &agui.TextMessageStart{MessageID: "m", Role: "assistant"}))
			t.Cleanup(srv.Close)
			return srv.URL
		}, remote.CodeConnection, "ended before"},
		{"unreachable", func(t *testing.T) string { return closed.URL }, remote.CodeConnection, "connect"},
		{"protocol", func(t *testing.T) string {
			srv := httptest.NewServer(sse(&agui.RunStarted{ThreadID: "t", RunID: "r"}, &agui.TextMessageContent{MessageID: "m9", Delta: "x"}))
			t.Cleanup(srv.Close)
			return srv.URL
		}, remote.CodeBadStream, "m9"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			re := runError(t, proxy(t, tc.url(t)))
			if re.Code != string(tc.code) || !strings.Contains(re.Message, tc.contains) {
				t.Errorf("RUN_ERROR %s %q, want %s containing %q", re.Code, re.Message, tc.code, tc.contains)
			}
		})
	}
}

// An interrupt of the remote run pauses the proxied run on the same
// interrupt, and the resume goes back to the remote with the thread id
// and the answer.
func TestInterruptResume(t *testing.T) {
	type seen struct {
		thread string
		resume []agui.ResumeEntry
	}
	runs := make(chan seen, 2)
	remoteURL := serve(t, core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		in := rc.Input()
		runs <- seen{in.ThreadID, in.Resume}
		if _, ok := rc.ResumeFor("ask-1"); ok {
			return agui.Success(), rc.Say("booked")
		}
		return agui.Interrupted(agui.Interrupt{ID: "ask-1", Reason: "confirm", Message: "Book it?"}), nil
	}))
	p := proxy(t, remoteURL)
	last := func(in *agui.RunAgentInput) *agui.RunFinished {
		var last agui.Event
		for ev, err := range core.Run(t.Context(), p, in) {
			if err != nil {
				t.Fatal(err)
			}
			last = ev
		}
		fin, ok := last.(*agui.RunFinished)
		if !ok {
			t.Fatalf("last event %#v, want RUN_FINISHED", last)
		}
		return fin
	}
	fin := last(agui.NewInput("thread-7", "run-1"))
	if fin.Outcome == nil || fin.Outcome.Type != agui.OutcomeInterrupt || len(fin.Outcome.Interrupts) != 1 ||
		fin.Outcome.Interrupts[0].ID != "ask-1" || fin.Outcome.Interrupts[0].Message != "Book it?" {
		t.Fatalf("first run's outcome %+v, want the remote's interrupt ask-1", fin.Outcome)
	}
	<-runs
	in := agui.NewInput("thread-7", "run-2")
	in.Resume = []agui.ResumeEntry{{InterruptID: "ask-1", Status: agui.ResumeResolved, Payload: map[string]any{"ok": true}}}
	fin = last(in)
	if fin.Outcome != nil && fin.Outcome.Type != agui.OutcomeSuccess {
		t.Errorf("resumed run's outcome %+v, want success", fin.Outcome)
	}
	got := <-runs
	if got.thread != "thread-7" || len(got.resume) != 1 || got.resume[0].InterruptID != "ask-1" {
		t.Errorf("the remote's resumed run saw thread %q and resume %+v", got.thread, got.resume)
	}
}

func TestNewNil(t *testing.T) {
	if _, err := remote.New(nil); err == nil {
		t.Error("New(nil) succeeded")
	}
	if _, err := remote.Tool("x", "y", nil); err == nil {
		t.Error("Tool with a nil client succeeded")
	}
}
