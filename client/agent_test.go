package client_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/client"
	"github.com/agui-go/agui/core"
)

// serve returns the URL of an agent served by core.NewHandler.
func serve(t *testing.T, agent core.Agent[core.NoState]) string {
	t.Helper()
	h, err := core.NewHandler(agent, quiet)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

var quiet = core.WithHandlerLogger(slog.New(slog.DiscardHandler))

var hello = core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
	return agui.Success(), rc.Say("Hello!")
})

func TestNewRefusesBadOptions(t *testing.T) {
	for name, try := range map[string]func() (*client.Agent, error){
		"relative URL":    func() (*client.Agent, error) { return client.New("/agents/x") },
		"ftp URL":         func() (*client.Agent, error) { return client.New("ftp://example.com/x") },
		"nil HTTP client": func() (*client.Agent, error) { return client.New("http://x", client.WithHTTPClient(nil)) },
		"nil warnings":    func() (*client.Agent, error) { return client.New("http://x", client.WithWarnings(nil)) },
		"empty header":    func() (*client.Agent, error) { return client.New("http://x", client.WithHeader("", "v")) },
		"bad version":     func() (*client.Agent, error) { return client.New("http://x", client.WithAgentVersion("draft")) },
	} {
		if a, err := try(); err == nil || a != nil {
			t.Errorf("%s: got %v, %v; want an error", name, a, err)
		}
	}
}

// A refusal before the stream is an error with the body's code and field.
func TestRunRefusalIsCodedError(t *testing.T) {
	h, err := core.NewHandler(hello, quiet)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	agent, err := client.New(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	in := agui.NewInput("", "r1") // a thread id is required
	_, err = agent.Run(t.Context(), in)
	var se *client.StatusError
	if !errors.As(err, &se) || se.StatusCode != http.StatusUnprocessableEntity || se.Code != core.CodeInvalidInput || !strings.Contains(se.Message, "threadId") {
		t.Fatalf("error %v (%#v), want a 422 StatusError, INVALID_INPUT, naming threadId", err, se)
	}
	if agui.CodeOf(err) != se.Code {
		t.Errorf("CodeOf = %s, want the body's %s", agui.CodeOf(err), se.Code)
	}
}

func TestRunSendsHeadersAndReadsProtobuf(t *testing.T) {
	h, err := core.NewHandler(hello, quiet)
	if err != nil {
		t.Fatal(err)
	}
	var gotAuth, gotType string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAuth = r.Header.Get("Authorization")
		h.ServeHTTP(w, r)
		gotType = w.Header().Get("Content-Type")
	}))
	defer srv.Close()
	agent, err := client.New(srv.URL, client.WithProtobuf(), client.WithHeader("Authorization", "Bearer x"))
	if err != nil {
		t.Fatal(err)
	}
	view, err := agent.Run(t.Context(), agui.NewInput("t1", "r1"))
	if err != nil {
		t.Fatal(err)
	}
	if gotAuth != "Bearer x" || gotType != agui.ProtoContentType {
		t.Errorf("Authorization %q, Content-Type %q; want the header sent and protobuf served", gotAuth, gotType)
	}
	if len(view.Messages) != 1 || view.Messages[0].(*agui.AssistantMessage).Content != "Hello!" {
		t.Errorf("messages %+v, want the greeting", view.Messages)
	}
}

// Cancelling the context ends the run with CANCELLED, and the agent's
// context ends with the request.
func TestRunCancelledThroughContext(t *testing.T) {
	stopped := make(chan struct{})
	agent, err := client.New(serve(t, core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		if err := rc.Say("working"); err != nil {
			return agui.Outcome{}, err
		}
		<-ctx.Done()
		close(stopped)
		return agui.Outcome{}, ctx.Err()
	})))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var got error
	for ev, err := range agent.Events(ctx, agui.NewInput("t1", "r1"), nil) {
		if err != nil {
			got = err
			break
		}
		if ev.Type() == agui.TypeTextMessageEnd {
			cancel()
		}
	}
	if !agui.IsCancelled(got) {
		t.Fatalf("error %v, want CANCELLED", got)
	}
	<-stopped
}

// replayServer writes frames as an SSE body.
func replayServer(t *testing.T, frames ...string) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", agui.SSEContentType)
		for _, f := range frames {
			fmt.Fprintf(w, "data: %s\n\n", f)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestRunTruncatedStreamIsDisconnected(t *testing.T) {
	agent, err := client.New(replayServer(t, `{"type":"RUN_STARTED","threadId":"t","runId":"r"}`))
	if err != nil {
		t.Fatal(err)
	}
	view, err := agent.Run(t.Context(), agui.NewInput("t", "r"))
	if !agui.IsDisconnected(err) || view.Outcome() != nil {
		t.Fatalf("error %v, outcome %v; want DISCONNECTED and no outcome", err, view.Outcome())
	}
}

func TestRunRejectsAStreamTheVerifierRejects(t *testing.T) {
	agent, err := client.New(replayServer(t,
		`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m-orphan","delta":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	_, err = agent.Run(t.Context(), agui.NewInput("t", "r"))
	var ve *agui.VerificationError
	if agui.CodeOf(err) != agui.CodeProtocolViolation || !errors.As(err, &ve) || !strings.Contains(err.Error(), "m-orphan") {
		t.Fatalf("error %v, want PROTOCOL_VIOLATION naming m-orphan", err)
	}
}

// Without WithWarnings, a warning goes to slog's default logger.
func TestWarningsDefaultToSlog(t *testing.T) {
	var buf strings.Builder
	restore := setSlog(&buf)
	defer restore()
	agent, err := client.New(replayServer(t,
		`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`,
		`{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/missing","value":1}]}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := agent.Run(t.Context(), agui.NewInput("t", "r")); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "Failed to apply state patch") {
		t.Fatalf("log %q, want the patch warning", buf.String())
	}
}

// Activity messages are the client's view of progress, not input: the
// request leaves them out, as @ag-ui/client's does, and the view keeps
// them.
func TestRunLeavesActivitiesOutOfTheRequest(t *testing.T) {
	h, err := core.NewHandler(hello, quiet)
	if err != nil {
		t.Fatal(err)
	}
	var sent []agui.Message
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		in, err := agui.DecodeInput(body)
		if err != nil {
			t.Error(err)
		} else {
			sent = in.Messages
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	agent, err := client.New(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	in := agui.NewInput("t1", "r1")
	in.Messages = []agui.Message{
		&agui.UserMessage{ID: "u1", Content: agui.TextContent("hi")},
		&agui.ActivityMessage{ID: "a1", ActivityType: "progress", Content: map[string]any{"done": 1}},
	}
	view, err := agent.Run(t.Context(), in)
	if err != nil {
		t.Fatal(err)
	}
	if len(sent) != 1 || sent[0].MessageID() != "u1" {
		t.Errorf("the request carried %d messages, want only u1", len(sent))
	}
	if len(view.Messages) != 3 || view.Messages[1].MessageID() != "a1" {
		t.Errorf("the view has %d messages, want u1, a1 and the answer", len(view.Messages))
	}
}
