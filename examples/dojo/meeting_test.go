package main

import (
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/client"
	"github.com/agui-go/agui/loop"
)

func TestMeetingAsksForTheTime(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer map[string]any
		want   string
	}{
		{"picked", map[string]any{"chosen_time": "2026-12-08T10:00:00Z", "chosen_label": "Tue 10:00"}, `Booked "Intro call" with the sales team for Tue 10:00.`},
		{"cancelled in the picker", map[string]any{"cancelled": true}, "The user did not pick a time: nothing was booked."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := serve(t, loop.Script(
				loop.Turn{Calls: []loop.ScriptedCall{{ID: "call-1", Name: "schedule_meeting", Args: `{"topic":"Intro call","attendee":"the sales team"}`}}},
				loop.Turn{Text: "Done."},
			))
			agent, err := client.New(base + "/interrupt")
			if err != nil {
				t.Fatal(err)
			}
			in := input("Book an intro call with the sales team")
			view, err := agent.Run(t.Context(), in)
			if err != nil {
				t.Fatal(err)
			}
			out := view.Outcome()
			if out.Type != agui.OutcomeInterrupt || len(out.Interrupts) != 1 || out.Interrupts[0].Reason != loop.ReasonUserInput {
				t.Fatalf("outcome %+v", out)
			}
			resume := agui.NewInput(in.ThreadID, "run-2")
			resume.Messages = view.Messages
			resume.Resume = []agui.ResumeEntry{{InterruptID: out.Interrupts[0].ID, Status: agui.ResumeResolved, Payload: tc.answer}}
			view, err = agent.Run(t.Context(), resume)
			if err != nil {
				t.Fatal(err)
			}
			var got string
			for _, m := range view.Messages {
				if tm, ok := m.(*agui.ToolMessage); ok && tm.ToolCallID == "call-1" {
					got = tm.Content.String()
				}
			}
			if got != tc.want || lastAssistant(t, view).Content != "Done." {
				t.Fatalf("result %q, want %q; messages %+v", got, tc.want, view.Messages)
			}
		})
	}
}
