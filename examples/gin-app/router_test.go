package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
)

func newTestServer(t *testing.T) *httptest.Server {
	t.Helper()
	return newTestServerWith(t, defaultConfig(slog.New(slog.DiscardHandler)))
}

// newTestServerWith is newTestServer on cfg (a Redis store, say).
func newTestServerWith(t *testing.T, cfg config) *httptest.Server {
	t.Helper()
	cfg.slowInterval, cfg.slowTotal = time.Millisecond, 20*time.Millisecond
	// The router needs its own address for /agents/remote: listen first.
	srv := httptest.NewUnstartedServer(nil)
	cfg.self = "http://" + srv.Listener.Addr().String()
	r, err := newRouter(cfg)
	if err != nil {
		srv.Listener.Close()
		t.Fatal(err)
	}
	srv.Config.Handler = r
	srv.Start()
	t.Cleanup(func() {
		srv.Close()
		http.DefaultClient.CloseIdleConnections()
	})
	return srv
}

// input is a 1.0 run request with one user message and extra fields.
func input(text, extra string) string {
	msg, _ := json.Marshal(text)
	return `{"threadId":"t","runId":"r","protocolVersion":"1.0","messages":[{"id":"u1","role":"user","content":` +
		string(msg) + `}]` + extra + `}`
}

func do(t *testing.T, url, body string, header ...string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// stream runs one request and returns its verified events.
func stream(t *testing.T, url, body string, header ...string) []agui.Event {
	t.Helper()
	resp := do(t, url, body, header...)
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("POST %s: %d %s", url, resp.StatusCode, b)
	}
	evs := aguitest.ReadSSE(t, resp.Body)
	if len(evs) == 0 {
		t.Fatalf("%s: empty stream", url)
	}
	return evs
}

// text concatenates every text delta of the stream.
func text(evs []agui.Event) string {
	var b strings.Builder
	for _, ev := range evs {
		if c, ok := ev.(*agui.TextMessageContent); ok {
			b.WriteString(c.Delta)
		}
	}
	return b.String()
}

func finished(t *testing.T, evs []agui.Event) *agui.RunFinished {
	t.Helper()
	f, ok := evs[len(evs)-1].(*agui.RunFinished)
	if !ok {
		t.Fatalf("stream ends with %v, want RUN_FINISHED", evs[len(evs)-1])
	}
	return f
}

func count(evs []agui.Event, types ...agui.EventType) int {
	n := 0
	for _, ev := range evs {
		if slices.Contains(types, ev.Type()) {
			n++
		}
	}
	return n
}

func TestEcho(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	evs := stream(t, srv.URL+"/agents/echo", input("the quick brown fox", ""))
	if got := text(evs); got != "the quick brown fox" {
		t.Errorf("text = %q", got)
	}
	if n := count(evs, agui.TypeTextMessageContent); n != 4 {
		t.Errorf("%d deltas, want one per word (4)", n)
	}
	finished(t, evs)
}

func TestPrivateEchoNeedsToken(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	resp := do(t, srv.URL+"/agents/private/echo", input("hi", ""))
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("without a token: %d, want 401", resp.StatusCode)
	}
	evs := stream(t, srv.URL+"/agents/private/echo", input("hi", ""), "Authorization", "Bearer demo")
	if text(evs) != "hi" {
		t.Errorf("with the token: text %q", text(evs))
	}
}

func TestEditor(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	evs := stream(t, srv.URL+"/agents/editor", input("name it", ""))
	want := []agui.EventType{
		agui.TypeRunStarted, agui.TypeStepStarted,
		agui.TypeReasoningStart, agui.TypeReasoningMessageStart, agui.TypeReasoningMessageContent,
		agui.TypeReasoningMessageEnd, agui.TypeReasoningEnd,
		agui.TypeTextMessageStart, agui.TypeTextMessageContent, agui.TypeTextMessageContent, agui.TypeTextMessageEnd,
		agui.TypeStateSnapshot, agui.TypeStepFinished, agui.TypeRunFinished,
	}
	if got := aguitest.Types(evs); !slices.Equal(got, want) {
		t.Fatalf("types = %v\nwant    %v", got, want)
	}
	snap, _ := json.Marshal(evs[11].(*agui.StateSnapshot).Snapshot)
	if string(snap) != `{"revision":1,"title":"Q3 plan"}` {
		t.Errorf("snapshot = %s", snap)
	}
}

func TestFlaky(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	evs := stream(t, srv.URL+"/agents/flaky", input("weather?", ""))
	e, ok := evs[len(evs)-1].(*agui.RunError)
	if !ok || e.Code != string(agui.CodeAgent) || e.Message != "agent error: the weather service is down" {
		t.Fatalf("last event = %+v, want RUN_ERROR AGENT_ERROR", evs[len(evs)-1])
	}
	if text(evs) != "Looking that up." {
		t.Errorf("text = %q", text(evs))
	}
}

func TestApprover(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	o := finished(t, stream(t, srv.URL+"/agents/approver", input("delete everything", ""))).Outcome
	if o == nil || o.Type != agui.OutcomeInterrupt || len(o.Interrupts) != 1 || o.Interrupts[0].ID != approvalID {
		t.Fatalf("first run outcome = %+v, want an interrupt on %s", o, approvalID)
	}
	for status, reply := range map[string]string{"resolved": "Done.", "cancelled": "Cancelled."} {
		resume := `,"resume":[{"interruptId":"` + approvalID + `","status":"` + status + `"}]`
		evs := stream(t, srv.URL+"/agents/approver", input("delete everything", resume))
		if text(evs) != reply {
			t.Errorf("resume %s: text %q, want %q", status, text(evs), reply)
		}
		if o := finished(t, evs).Outcome; o != nil && o.Type != agui.OutcomeSuccess {
			t.Errorf("resume %s: outcome %+v", status, o)
		}
	}
}

// The approver acts on a resume only when it answers the interrupt it
// raised on that thread: an unknown interrupt id, a resume on a thread it
// never paused, or one with an extra foreign entry ends with RUN_ERROR
// UNKNOWN_INTERRUPT and no reply. Before, a resume naming its interrupt
// id was acted on, on any thread.
func TestApproverRefusesForeignResume(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	onThread := func(thread, resume string) string {
		return `{"threadId":"` + thread + `","runId":"r","protocolVersion":"1.0","messages":[]` + resume + `}`
	}
	entry := func(id string) string { return `{"interruptId":"` + id + `","status":"resolved"}` }
	if o := finished(t, stream(t, srv.URL+"/agents/approver", onThread("paused", ""))).Outcome; o == nil || o.Type != agui.OutcomeInterrupt {
		t.Fatalf("outcome %+v", o)
	}
	for name, body := range map[string]string{
		"unknown id":       onThread("paused", `,"resume":[`+entry("not-mine")+`]`),
		"never paused":     onThread("other", `,"resume":[`+entry(approvalID)+`]`),
		"an extra foreign": onThread("paused", `,"resume":[`+entry(approvalID)+`,`+entry("not-mine")+`]`),
	} {
		evs := stream(t, srv.URL+"/agents/approver", body)
		e, ok := evs[len(evs)-1].(*agui.RunError)
		if !ok || e.Code != string(codeUnknownInterrupt) {
			t.Errorf("%s: last event %+v, want RUN_ERROR %s", name, evs[len(evs)-1], codeUnknownInterrupt)
		}
		if text(evs) != "" {
			t.Errorf("%s: acted on: %q", name, text(evs))
		}
	}
	// The interrupt it raised is still answered.
	if got := text(stream(t, srv.URL+"/agents/approver", onThread("paused", `,"resume":[`+entry(approvalID)+`]`))); got != "Done." {
		t.Fatalf("reply %q", got)
	}
}

func TestSupervisorVisibilities(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	lifecycle := []agui.EventType{agui.TypeSubagentStarted, agui.TypeSubagentFinished, agui.TypeSubagentError}

	emitted := stream(t, srv.URL+"/agents/supervisor", input("plan", ""))
	if n := count(emitted, agui.TypeSubagentStarted); n != 2 {
		t.Errorf("as emitted: %d SUBAGENT_STARTED, want 2", n)
	}
	if n := count(emitted, agui.TypeSubagentFinished); n != 2 {
		t.Errorf("as emitted: %d SUBAGENT_FINISHED, want 2", n)
	}
	want := "Two tasks: scope, then risks.About a day each.Plan ready."
	if text(emitted) != want {
		t.Errorf("as emitted: text %q", text(emitted))
	}

	inline := stream(t, srv.URL+"/agents/compat/supervisor", input("plan", ""))
	if n := count(inline, lifecycle...); n != 0 {
		t.Errorf("inline: %d subagent lifecycle events, want 0", n)
	}
	if text(inline) != want {
		t.Errorf("inline: text %q, want every owner's text", text(inline))
	}

	hidden := stream(t, srv.URL+"/agents/hidden/supervisor", input("plan", ""))
	if n := count(hidden, lifecycle...); n != 0 {
		t.Errorf("hidden: %d subagent lifecycle events, want 0", n)
	}
	if text(hidden) != "Plan ready." {
		t.Errorf("hidden: text %q, want only the supervisor's own", text(hidden))
	}
	for _, ev := range hidden {
		if agui.SubagentOf(ev) != "" {
			t.Errorf("hidden: %s attributed to %s", ev.Type(), agui.SubagentOf(ev))
		}
	}
}

func TestTools(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	evs := stream(t, srv.URL+"/agents/tools", input("find plans", ""))
	var names []string
	for _, ev := range evs {
		if s, ok := ev.(*agui.ToolCallStart); ok {
			names = append(names, s.ToolCallName)
		}
	}
	if !slices.Equal(names, []string{"search"}) {
		t.Errorf("tool calls shown = %v, want only search", names)
	}
	if n := count(evs, agui.TypeToolCallResult); n != 1 {
		t.Errorf("%d tool results, want 1 (search)", n)
	}
	if n := count(evs, agui.TypeStateSnapshot, agui.TypeStateDelta); n != 1 {
		t.Fatalf("%d state events, want 1 carrying the search result", n)
	}
	const want = `{"search":{"hits":["Q3 plan","Q4 plan"]}}`
	for _, ev := range evs {
		switch e := ev.(type) {
		case *agui.StateSnapshot:
			if got, _ := json.Marshal(e.Snapshot); string(got) != want {
				t.Errorf("snapshot = %s, want %s", got, want)
			}
		case *agui.StateDelta:
			if len(e.Delta) != 1 || e.Delta[0].Path != "/search" {
				t.Errorf("delta = %+v, want one operation on /search", e.Delta)
			}
		}
	}
	if text(evs) != "Found 2 plans." {
		t.Errorf("text = %q", text(evs))
	}
}

func TestSlow(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	evs := stream(t, srv.URL+"/agents/slow", input("go", ""))
	var want strings.Builder
	for i := 1; i <= count(evs, agui.TypeTextMessageContent); i++ {
		fmt.Fprintf(&want, "%d ", i)
	}
	if want.Len() == 0 || text(evs) != want.String() {
		t.Errorf("text = %q, want numbered deltas %q", text(evs), want.String())
	}
	finished(t, evs)
}

func TestCapabilitiesForEveryRoute(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	for _, route := range []string{
		"/agents/echo", "/agents/editor", "/agents/flaky", "/agents/approver", "/agents/supervisor",
		"/agents/compat/supervisor", "/agents/hidden/supervisor", "/agents/tools", "/agents/slow", "/agents/loop",
	} {
		resp, err := http.Get(srv.URL + route + "/capabilities")
		if err != nil {
			t.Fatal(err)
		}
		var caps agui.Capabilities
		err = json.NewDecoder(resp.Body).Decode(&caps)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || err != nil || caps.Transport == nil {
			t.Errorf("GET %s/capabilities: %d %v %+v", route, resp.StatusCode, err, caps)
		}
	}
	// GET / is the chat page, beside the capability routes.
	resp, err := http.Get(srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET / = %d, want 200 (the chat page)", resp.StatusCode)
	}
}

// TestLoop drives /agents/loop over HTTP: the first run pauses on the
// approval of book_trip, and the resume runs it.
func TestLoop(t *testing.T) {
	srv := newTestServer(t)
	evs := stream(t, srv.URL+"/agents/loop", input("Plan a weekend in Oslo", ""))
	fin := finished(t, evs)
	if fin.Outcome == nil || fin.Outcome.Type != agui.OutcomeInterrupt {
		t.Fatalf("first run: %v, want an interrupt", aguitest.Types(evs))
	}
	intr := fin.Outcome.Interrupts[0]
	if intr.Reason != "tool_approval" || intr.ToolCallID == "" {
		t.Fatalf("interrupt %+v", intr)
	}
	resume := `{"threadId":"t","runId":"r2","protocolVersion":"1.0","messages":[],"resume":[{"interruptId":` +
		strconv.Quote(intr.ID) + `,"status":"resolved","payload":{"approved":true}}]}`
	evs = stream(t, srv.URL+"/agents/loop", resume)
	if fin := finished(t, evs); fin.Outcome == nil || fin.Outcome.Type != agui.OutcomeSuccess {
		t.Fatalf("resume: %v, want success", aguitest.Types(evs))
	}
	var booked bool
	for _, ev := range evs {
		if r, ok := ev.(*agui.ToolCallResult); ok && r.ToolCallID == intr.ToolCallID {
			booked = true
		}
	}
	if !booked {
		t.Fatalf("book_trip has no result after approval: %v", aguitest.Types(evs))
	}
}
