package main

import (
	"net/http/httptest"
	"testing"

	"go.uber.org/goleak"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/internal/officialclient"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// The official client runs the example route: the tool call, its result
// and the streamed answer are what it reconstructs.
func TestOfficialClient(t *testing.T) {
	r, err := newRouter()
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(r)
	defer srv.Close()
	res := officialclient.Run(t, srv.URL+"/agents/langchaingo", officialclient.Session{
		Steps: []officialclient.Step{{Messages: []agui.Message{&agui.UserMessage{ID: "u1", Content: agui.TextContent("What time is it in Oslo?")}}}},
	})
	got := res[0]
	if err := got.Clean(); err != nil {
		t.Fatal(err)
	}
	if got.Outcome != "success" {
		t.Fatalf("outcome %q, events %v", got.Outcome, got.Types())
	}
	var call, result, answer string
	for _, m := range got.Messages {
		switch m := m.(type) {
		case *agui.AssistantMessage:
			if len(m.ToolCalls) == 1 {
				call = m.ToolCalls[0].Function.Name + " " + m.ToolCalls[0].Function.Arguments
			}
			if m.Content != "" {
				answer = m.Content
			}
		case *agui.ToolMessage:
			result = m.Content.String()
		}
	}
	if call != `get_time {"city":"Oslo"}` || result == "" || answer != "It is 12:00 in Oslo, says the tool." {
		t.Fatalf("call %q result %q answer %q; messages %#v", call, result, answer, got.Messages)
	}
}
