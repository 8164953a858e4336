package loop

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agui-go/agui"
)

// langGraphAgent is questionAgent in LangGraph's dialect, its question
// prompted with the options the user picks from.
func langGraphAgent(t *testing.T, runs *int) *Agent {
	t.Helper()
	q, err := NewQuestion("schedule_meeting", "Books a meeting at a time the user picks",
		func(ctx context.Context, in meetingIn, answer slotAnswer) (string, error) {
			*runs++
			return in.City + " at " + answer.ChosenTime, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	q, err = Prompt(q, func(ctx context.Context, in meetingIn) any {
		return map[string]any{"message": "When in " + in.City + "?", "options": []string{"9:00", "10:00"}}
	})
	if err != nil {
		t.Fatal(err)
	}
	return mustNew(t, Script(
		Turn{Calls: []ScriptedCall{{ID: "call-1", Name: "schedule_meeting", Args: `{"city":"Oslo"}`}}},
		Turn{Text: "Done."},
	), WithTools(q), WithLangGraphInterrupts(), WithCheckpoints(checkedStore{NewMemoryStore(), t}))
}

// lgInput is a run of thread t1 whose forwardedProps are props ("" for
// none).
func lgInput(runID, props string, msgs ...agui.Message) *agui.RunAgentInput {
	in := agui.NewInput("t1", runID)
	in.Messages = msgs
	if props != "" {
		in.ForwardedProps = json.RawMessage(props)
	}
	return in
}

// runErrorCode is the code of the stream's RUN_ERROR, "" for none.
func runErrorCode(evs []agui.Event) string {
	for _, ev := range evs {
		if e, ok := ev.(*agui.RunError); ok {
			return e.Code
		}
	}
	return ""
}

// The pause is CUSTOM on_interrupt with the prompt as a JSON string, then
// a RUN_FINISHED without an interrupt outcome; forwardedProps'
// command.resume answers it, as a JSON string or as JSON.
func TestLangGraphPauseAndResume(t *testing.T) {
	for _, resume := range []string{`"{\"chosen_time\":\"10:00\"}"`, `{"chosen_time":"10:00"}`} {
		runs := 0
		a := langGraphAgent(t, &runs)
		evs := runCore(t, a, lgInput("r1", "", UserText("book Oslo")))
		n := len(evs)
		if n < 2 {
			t.Fatalf("events %v", types(evs))
		}
		c, ok := evs[n-2].(*agui.Custom)
		if !ok || c.Name != EventOnInterrupt || c.Value != `{"message":"When in Oslo?","options":["9:00","10:00"]}` {
			t.Fatalf("before RUN_FINISHED: %#v", evs[n-2])
		}
		fin := evs[n-1].(*agui.RunFinished)
		if fin.Outcome != nil && fin.Outcome.Type != agui.OutcomeSuccess {
			t.Fatalf("outcome %+v: a useLangGraphInterrupt client stops on an interrupt outcome", fin.Outcome)
		}
		if r, _ := fin.Result.(map[string]any); r["finishReason"] != string(FinishAwaitingApproval) {
			t.Fatalf("result %v", fin.Result)
		}
		evs = runCore(t, a, lgInput("r2", `{"command":{"resume":`+resume+`}}`))
		if code := runErrorCode(evs); code != "" || runs != 1 {
			t.Fatalf("resume %s: error %q, runs %d", resume, code, runs)
		}
		var result string
		for _, ev := range evs {
			if e, ok := ev.(*agui.ToolCallResult); ok {
				result = e.Content.String()
			}
		}
		if result != "Oslo at 10:00" {
			t.Fatalf("result %q", result)
		}
	}
}

// A bad command resume fails the run with BAD_RESUME before the tool
// runs, the question still pending: the right answer then goes through.
func TestLangGraphBadResume(t *testing.T) {
	runs := 0
	a := langGraphAgent(t, &runs)
	if code := runErrorCode(runCore(t, a, lgInput("r0", `{"command":{"resume":"{}"}}`, UserText("hi")))); code != string(CodeBadResume) {
		t.Fatalf("resume with nothing pending: %q", code)
	}
	a = langGraphAgent(t, &runs)
	runCore(t, a, lgInput("r1", "", UserText("book Oslo")))
	huge := `"` + strings.Repeat("x", MaxCommandResume) + `"`
	for _, props := range []string{
		`{"command":{"resume":"{\"chosen_time\":10}"}}`, // wrong type for the schema
		`{"command":{"resume":` + huge + `}}`,
		`{"command":{"resume":"not json"}}`, // a plain string is no slot
	} {
		if code := runErrorCode(runCore(t, a, lgInput("r2", props))); code != string(CodeBadResume) {
			t.Fatalf("%.60s: code %q", props, code)
		}
	}
	if runs != 0 {
		t.Fatalf("the tool ran %d times on bad answers", runs)
	}
	if code := runErrorCode(runCore(t, a, lgInput("r3", `{"command":{"resume":{"chosen_time":"9:00"}}}`))); code != "" || runs != 1 {
		t.Fatalf("good answer after bad ones: %q, runs %d", code, runs)
	}
}

// Without the option a pause stays an AG-UI interrupt, the prompt in its
// metadata, and forwardedProps are not a resume.
func TestLangGraphOff(t *testing.T) {
	runs := 0
	q, _ := NewQuestion("schedule_meeting", "Books a meeting",
		func(ctx context.Context, in meetingIn, answer slotAnswer) (string, error) { runs++; return "ok", nil })
	q, err := Prompt(q, func(ctx context.Context, in meetingIn) any { return in.City })
	if err != nil {
		t.Fatal(err)
	}
	a := mustNew(t, Script(Turn{Calls: []ScriptedCall{{ID: "call-1", Name: "schedule_meeting", Args: `{"city":"Oslo"}`}}}), WithTools(q))
	evs := runCore(t, a, lgInput("r1", "", UserText("book")))
	fin := evs[len(evs)-1].(*agui.RunFinished)
	if fin.Outcome == nil || fin.Outcome.Type != agui.OutcomeInterrupt || fin.Outcome.Interrupts[0].Metadata["prompt"] != "Oslo" {
		t.Fatalf("outcome %+v", fin.Outcome)
	}
	for _, ev := range evs {
		if _, ok := ev.(*agui.Custom); ok {
			t.Fatal("CUSTOM event without the option")
		}
	}
	if code := runErrorCode(runCore(t, a, lgInput("r2", `{"command":{"resume":{"chosen_time":"9:00"}}}`))); code != string(CodeBadResume) || runs != 0 {
		t.Fatalf("forwardedProps resumed a run without the option: %q, runs %d", code, runs)
	}
}

// An approval pauses in the dialect too: its value is the AG-UI
// interrupt, and the resume is the approval's payload.
func TestLangGraphApproval(t *testing.T) {
	a := mustNew(t, Script(
		Turn{Calls: echoCalls("c1")},
		Turn{Text: "ok"},
	), WithTools(echoTool(t)), WithNeedsApproval(func(Call) bool { return true }), WithLangGraphInterrupts())
	evs := runCore(t, a, lgInput("r1", "", UserText("go")))
	c, ok := evs[len(evs)-2].(*agui.Custom)
	var in struct {
		Reason     string `json:"reason"`
		ToolCallID string `json:"toolCallId"`
	}
	if !ok || json.Unmarshal([]byte(c.Value.(string)), &in) != nil || in.Reason != ReasonToolApproval || in.ToolCallID != "c1" {
		t.Fatalf("on_interrupt %#v", evs[len(evs)-2])
	}
	evs = runCore(t, a, lgInput("r2", `{"command":{"resume":{"approved":true}}}`))
	if code := runErrorCode(evs); code != "" {
		t.Fatalf("approval: %q", code)
	}
}

// Prompt is for questions only.
func TestPromptNotQuestion(t *testing.T) {
	if _, err := Prompt(echoTool(t), func(ctx context.Context, in struct{}) any { return nil }); err == nil {
		t.Fatal("Prompt of a plain tool")
	}
}
