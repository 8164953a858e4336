package officialclient

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

type counter struct {
	Count int `json:"count"`
}

// A clean run: the client accepts it, rebuilds the assistant's message
// and the state, and a second step on the same agent carries both on.
func TestRunReconstructsMessagesAndState(t *testing.T) {
	agent := core.AgentFunc[counter](func(ctx context.Context, rc *core.RunContext[counter]) (agui.Outcome, error) {
		if err := rc.UpdateState(func(s *counter) { s.Count++ }); err != nil {
			return agui.Outcome{}, err
		}
		if err := rc.Say("hello"); err != nil {
			return agui.Outcome{}, err
		}
		return agui.Success(), nil
	})
	h, err := core.NewHandler(agent)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()

	res := Run(t, srv.URL, Session{
		ThreadID: "t1",
		State:    json.RawMessage(`{"count":1}`),
		Steps: []Step{
			{Messages: []agui.Message{&agui.UserMessage{ID: "u1", Content: agui.TextContent("hi")}}},
			{Messages: []agui.Message{&agui.UserMessage{ID: "u2", Content: agui.TextContent("again")}}},
		},
	})
	if len(res) != 2 {
		t.Fatalf("%d results, want 2", len(res))
	}
	for i, r := range res {
		if err := r.Clean(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if r.Outcome != "success" {
			t.Fatalf("step %d outcome %q", i, r.Outcome)
		}
	}
	last := res[1]
	if got := string(last.State); got != `{"count":3}` {
		t.Fatalf("state %s, want {\"count\":3}", got)
	}
	var said []string
	for _, m := range last.Messages {
		if a, ok := m.(*agui.AssistantMessage); ok {
			said = append(said, a.Content)
		}
	}
	if strings.Join(said, ",") != "hello,hello" {
		t.Fatalf("assistant messages %q", said)
	}
	if got := last.Types(); got[0] != "RUN_STARTED" || got[len(got)-1] != "RUN_FINISHED" {
		t.Fatalf("types %v", got)
	}
}

// A stream the client's verifier refuses is reported, not hidden: content
// for a message that never started rejects the run.
func TestRunReportsARefusedStream(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, ev := range []string{
			`{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}`,
			`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"orphan"}`,
			`{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}`,
		} {
			_, _ = w.Write([]byte("data: " + ev + "\n\n"))
		}
	}))
	defer srv.Close()
	res := Run(t, srv.URL, Session{ThreadID: "t1", Steps: []Step{{}}})
	if res[0].Clean() == nil || !strings.Contains(res[0].Error, "m1") {
		t.Fatalf("want a rejection naming m1, got error %q", res[0].Error)
	}
}
