package main

import (
	"net/http/httptest"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/client"
	"github.com/agui-go/agui/core"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// start serves the example's router in-process.
func start(t *testing.T) string {
	t.Helper()
	r, err := router(t.Context(), new(core.Gate))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
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
