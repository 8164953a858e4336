package loop_test

import (
	"context"
	"fmt"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
)

// A question tool asks the user before it runs: the call pauses the run
// with a user_input interrupt whose responseSchema is the answer's, and
// the resume's payload is the answer the tool gets.
func ExampleNewQuestion() {
	type meeting struct {
		Topic string `json:"topic"`
	}
	type slot struct {
		ChosenTime string `json:"chosen_time"`
	}
	schedule, _ := loop.NewQuestion("schedule_meeting", "Books a meeting at a time the user picks",
		func(ctx context.Context, in meeting, answer slot) (string, error) {
			return in.Topic + " booked for " + answer.ChosenTime, nil
		})
	model := loop.Script(
		loop.Turn{Calls: []loop.ScriptedCall{{ID: "call-1", Name: "schedule_meeting", Args: `{"topic":"Intro call"}`}}},
		loop.Turn{Text: "Booked."},
	)
	agent, _ := loop.New(model, loop.WithTools(schedule))
	ctx := context.Background()
	res, _ := agent.Execute(ctx, loop.Input{ThreadID: "t1", Messages: []agui.Message{loop.UserText("Book an intro call")}})
	fmt.Println(res.FinishReason, res.Interrupt.Reason, res.Interrupt.ToolCallID, res.Interrupt.Metadata["arguments"])

	answer := agui.ResumeEntry{InterruptID: res.Interrupt.ID, Status: agui.ResumeResolved, Payload: map[string]any{"chosen_time": "Tue 10:00"}}
	res, _ = agent.Execute(ctx, loop.Input{ThreadID: "t1", Resume: []agui.ResumeEntry{answer}})
	for _, m := range res.Messages {
		if tm, ok := m.(*agui.ToolMessage); ok {
			fmt.Println(tm.Content.String())
		}
	}
	fmt.Println(res.FinishReason)
	// Output:
	// awaiting-approval user_input call-1 {"topic":"Intro call"}
	// Intro call booked for Tue 10:00
	// stop
}
