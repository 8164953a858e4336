package loop

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agui-go/agui"
)

type meetingIn struct {
	City string `json:"city"`
}

type slotAnswer struct {
	ChosenTime string `json:"chosen_time"`
}

// questionAgent is an agent whose model calls the question tool
// schedule_meeting once, then answers; runs counts the tool's runs.
func questionAgent(t *testing.T, runs *int) *Agent {
	t.Helper()
	schedule, err := NewQuestion("schedule_meeting", "Books a meeting at a time the user picks",
		func(ctx context.Context, in meetingIn, answer slotAnswer) (string, error) {
			*runs++
			return in.City + " at " + answer.ChosenTime, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	agent, err := New(Script(
		Turn{Calls: []ScriptedCall{{ID: "call-1", Name: "schedule_meeting", Args: `{"city":"Oslo"}`}}},
		Turn{Text: "Done."},
	), WithTools(schedule), WithCheckpoints(checkedStore{NewMemoryStore(), t}))
	if err != nil {
		t.Fatal(err)
	}
	return agent
}

func TestQuestionInterrupt(t *testing.T) {
	var runs int
	agent := questionAgent(t, &runs)
	res, err := agent.Execute(t.Context(), Input{ThreadID: "t", Messages: []agui.Message{UserText("Book")}})
	if err != nil {
		t.Fatal(err)
	}
	in := res.Interrupt
	if res.FinishReason != FinishAwaitingApproval || in == nil || in.Reason != ReasonUserInput || in.ToolCallID != "call-1" {
		t.Fatalf("finish %s, interrupt %+v", res.FinishReason, in)
	}
	if in.Metadata["toolName"] != "schedule_meeting" || in.Metadata["arguments"] != `{"city":"Oslo"}` {
		t.Fatalf("metadata %v", in.Metadata)
	}
	schema, _ := json.Marshal(in.ResponseSchema)
	if !strings.Contains(string(schema), `"chosen_time"`) {
		t.Fatalf("responseSchema %s: want the answer's", schema)
	}
	if runs != 0 {
		t.Fatal("the tool ran before the answer")
	}
}

func TestQuestionAnswered(t *testing.T) {
	for _, tc := range []struct {
		name    string
		entry   func(id string) agui.ResumeEntry
		result  string
		runs    int
		badCode bool
	}{
		{"resolved", func(id string) agui.ResumeEntry {
			return agui.ResumeEntry{InterruptID: id, Status: agui.ResumeResolved, Payload: json.RawMessage(`{"chosen_time":"10:00"}`)}
		}, "Oslo at 10:00", 1, false},
		{"cancelled", func(id string) agui.ResumeEntry {
			return agui.ResumeEntry{InterruptID: id, Status: agui.ResumeCancelled}
		}, "rejected by user: cancelled by user", 0, false},
		{"an answer that does not fit", func(id string) agui.ResumeEntry {
			return agui.ResumeEntry{InterruptID: id, Status: agui.ResumeResolved, Payload: map[string]any{"chosen_time": 10}}
		}, "", 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var runs int
			agent := questionAgent(t, &runs)
			res, err := agent.Execute(t.Context(), Input{ThreadID: "t", Messages: []agui.Message{UserText("Book")}})
			if err != nil {
				t.Fatal(err)
			}
			id := res.Interrupt.ID
			res, err = agent.Execute(t.Context(), Input{ThreadID: "t", Resume: []agui.ResumeEntry{tc.entry(id)}})
			if tc.badCode {
				if agui.CodeOf(err) != CodeBadResume {
					t.Fatalf("err %v, want BAD_RESUME", err)
				}
				// The question is still pending: a good answer goes through.
				good := agui.ResumeEntry{InterruptID: id, Status: agui.ResumeResolved, Payload: map[string]any{"chosen_time": "11:00"}}
				if res, err = agent.Execute(t.Context(), Input{ThreadID: "t", Resume: []agui.ResumeEntry{good}}); err != nil {
					t.Fatal(err)
				}
				tc.result, tc.runs = "Oslo at 11:00", 1
			} else if err != nil {
				t.Fatal(err)
			}
			var got string
			for _, m := range res.Messages {
				if tm, ok := m.(*agui.ToolMessage); ok && tm.ToolCallID == "call-1" {
					got = tm.Content.String()
				}
			}
			if !strings.Contains(got, tc.result) || runs != tc.runs || res.FinishReason != FinishStop {
				t.Fatalf("result %q (want %q), runs %d (want %d), finish %s", got, tc.result, runs, tc.runs, res.FinishReason)
			}
		})
	}
}
