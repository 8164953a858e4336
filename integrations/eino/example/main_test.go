package main

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/client"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/internal/officialclient"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// start serves the example's router in-process.
func start(t *testing.T) string {
	t.Helper()
	r, closeRuns, err := router(t.Context(), new(core.Gate))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(r)
	t.Cleanup(func() {
		srv.Close()
		if err := closeRuns(context.Background()); err != nil {
			t.Error(err)
		}
	})
	return srv.URL
}

func userInput(thread, run, text string) *agui.RunAgentInput {
	in := agui.NewInput(thread, run)
	in.Messages = []agui.Message{&agui.UserMessage{ID: "u-" + run, Content: agui.TextContent(text)}}
	return in
}

func lastText(msgs []agui.Message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if a, ok := msgs[i].(*agui.AssistantMessage); ok && a.Content != "" {
			return a.Content
		}
	}
	return ""
}

// The Go client (the verifier and reducer of @ag-ui/client, in Go) drives
// both routes: a tool call with its result and state, an approval that
// pauses and resumes, and the loop on the eino model.
func TestExampleRoutesWithGoClient(t *testing.T) {
	url := start(t)
	c, err := client.New(url + "/agents/eino")
	if err != nil {
		t.Fatal(err)
	}
	view, err := c.Run(t.Context(), userInput("t1", "r1", "Weather in Paris?"))
	if err != nil {
		t.Fatal(err)
	}
	if got := lastText(view.Messages); got != "Done: sunny and 21°C in Paris." {
		t.Fatalf("answer %q, messages %v", got, view.Messages)
	}
	if st, _ := client.State[map[string]any](view); st["lastCity"] != "Paris" {
		t.Fatalf("state %v", view.State)
	}

	view, err = c.Run(t.Context(), userInput("t2", "r1", "Book a flight to Rome."))
	if err != nil {
		t.Fatal(err)
	}
	o := view.Outcome()
	if o == nil || o.Type != agui.OutcomeInterrupt {
		t.Fatalf("outcome %+v, error %+v", o, view.RunError)
	}
	resume := agui.NewInput("t2", "r2")
	resume.Messages = view.Messages
	resume.Resume = []agui.ResumeEntry{{InterruptID: o.Interrupts[0].ID, Status: agui.ResumeResolved}}
	view, err = c.Run(t.Context(), resume)
	if err != nil {
		t.Fatal(err)
	}
	if got := lastText(view.Messages); got != "Done: the flight to Rome is booked." {
		t.Fatalf("answer after approval %q (error %+v)", got, view.RunError)
	}

	lc, err := client.New(url + "/agents/eino-loop")
	if err != nil {
		t.Fatal(err)
	}
	view, err = lc.Run(t.Context(), userInput("t3", "r1", "Weather in Oslo?"))
	if err != nil {
		t.Fatal(err)
	}
	if got := lastText(view.Messages); !strings.HasPrefix(got, "Done: sunny and 21°C in Oslo") {
		t.Fatalf("loop answer %q (error %+v)", got, view.RunError)
	}
}

// The official @ag-ui/client accepts both routes' streams without
// complaint and reconstructs the conversation, the state and the
// approval's round trip.
func TestExampleRoutesWithOfficialClient(t *testing.T) {
	url := start(t)
	user := func(id, text string) []agui.Message {
		return []agui.Message{&agui.UserMessage{ID: id, Content: agui.TextContent(text)}}
	}
	res := officialclient.Run(t, url+"/agents/eino", officialclient.Session{ThreadID: "t1", Steps: []officialclient.Step{
		{Messages: user("u1", "Weather in Paris?")},
		{Messages: user("u2", "Book a flight to Rome.")},
		{ResumeAll: json.RawMessage(`{"approved":true}`)},
	}})
	for i, r := range res {
		if err := r.Clean(); err != nil {
			t.Fatalf("step %d: %v\nevents %v", i, err, r.Types())
		}
	}
	if got := lastText(res[0].Messages); got != "Done: sunny and 21°C in Paris." || !strings.Contains(string(res[0].State), `"lastCity":"Paris"`) {
		t.Fatalf("step 0: answer %q state %s", got, res[0].State)
	}
	if res[1].Outcome != "interrupt" {
		t.Fatalf("step 1: outcome %q events %v", res[1].Outcome, res[1].Types())
	}
	if got := lastText(res[2].Messages); got != "Done: the flight to Rome is booked." || res[2].Outcome != "success" {
		t.Fatalf("step 2: answer %q outcome %q", got, res[2].Outcome)
	}

	res = officialclient.Run(t, url+"/agents/eino-resumable", officialclient.Session{Steps: []officialclient.Step{{Messages: user("u1", "Weather in Lima?")}}})
	if err := res[0].Clean(); err != nil {
		t.Fatal(err)
	}
	if got := lastText(res[0].Messages); got != "Done: sunny and 21°C in Lima." {
		t.Fatalf("resumable answer %q", got)
	}

	res = officialclient.Run(t, url+"/agents/eino-loop", officialclient.Session{Steps: []officialclient.Step{{Messages: user("u1", "Weather in Oslo?")}}})
	if err := res[0].Clean(); err != nil {
		t.Fatal(err)
	}
	if got := lastText(res[0].Messages); !strings.HasPrefix(got, "Done: sunny and 21°C in Oslo") {
		t.Fatalf("loop answer %q", got)
	}
}
