package main

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"testing"

	"go.uber.org/goleak"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/internal/officialclient"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func serve(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	r, err := newRouter(ctx)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return srv.URL
}

func user(text string) []agui.Message {
	return []agui.Message{&agui.UserMessage{ID: "u1", Content: agui.TextContent(text)}}
}

// The official client runs the Generate route through an interrupt and
// its resume: the first run ends interrupted on the book call with the
// weather call's result in; the second answers it, and the client's
// transcript holds both calls, both results and the answer.
func TestOfficialClientGenerateWithInterrupt(t *testing.T) {
	res := officialclient.Run(t, serve(t)+"/agents/genkit", officialclient.Session{Steps: []officialclient.Step{
		{Messages: user("Book me a trip to Oslo")},
		{ResumeAll: json.RawMessage(`"confirmed"`)},
	}})
	for i, r := range res {
		if err := r.Clean(); err != nil {
			t.Fatalf("step %d: %v (events %v)", i, err, r.Types())
		}
	}
	if res[0].Outcome != "interrupt" || res[1].Outcome != "success" {
		t.Fatalf("outcomes %q, %q; events %v then %v", res[0].Outcome, res[1].Outcome, res[0].Types(), res[1].Types())
	}
	calls := map[string]string{} // id → name
	results := map[string]string{}
	var answer string
	for _, m := range res[1].Messages {
		switch m := m.(type) {
		case *agui.AssistantMessage:
			for _, c := range m.ToolCalls {
				calls[c.ID] = c.Function.Name
			}
			answer = m.Content
		case *agui.ToolMessage:
			results[calls[m.ToolCallID]] = m.Content.String()
		}
	}
	if len(calls) != 2 || results["weather"] != "sunny in Oslo" || results["book"] != "confirmed" {
		t.Fatalf("calls %v results %v; messages %#v", calls, results, res[1].Messages)
	}
	if answer != "Done. book: confirmed; weather: sunny in Oslo." {
		t.Fatalf("answer %q", answer)
	}
}

// The official client runs the loop route driven by the Genkit model.
func TestOfficialClientLoop(t *testing.T) {
	res := officialclient.Run(t, serve(t)+"/agents/genkit-loop", officialclient.Session{Steps: []officialclient.Step{
		{Messages: user("Weather in Oslo?")},
	}})
	if err := res[0].Clean(); err != nil {
		t.Fatal(err)
	}
	var answer string
	for _, m := range res[0].Messages {
		if am, ok := m.(*agui.AssistantMessage); ok && am.Content != "" {
			answer = am.Content
		}
	}
	if res[0].Outcome != "success" || answer != "Done. weather: sunny in Oslo." {
		t.Fatalf("outcome %q answer %q events %v", res[0].Outcome, answer, res[0].Types())
	}
}
