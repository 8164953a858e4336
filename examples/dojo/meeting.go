package main

import (
	"context"
	"fmt"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
	"github.com/agui-go/agui/loop"
)

// meeting is schedule_meeting's arguments: what the model asks the user
// to book.
type meeting struct {
	Topic    string `json:"topic" jsonschema:"what the meeting is about"`
	Attendee string `json:"attendee,omitempty" jsonschema:"who the user meets"`
}

// slot is the page's answer: the time the user picked, or that they
// cancelled.
type slot struct {
	ChosenTime  string `json:"chosen_time,omitempty" jsonschema:"the chosen time, ISO 8601"`
	ChosenLabel string `json:"chosen_label,omitempty" jsonschema:"the chosen time as the user saw it"`
	Cancelled   bool   `json:"cancelled,omitempty" jsonschema:"set when the user picked no time"`
}

// registerMeeting serves interrupt: schedule_meeting is a question tool
// (loop.NewQuestion), so its call pauses the run with a user_input
// interrupt; the page shows a time picker and resumes the run with the
// user's pick, which the tool books.
func registerMeeting(g *gin.RouterGroup, path string, provider loop.Provider, opts []core.HandlerOption) error {
	tool, err := loop.NewQuestion("schedule_meeting", "Schedules a meeting at a time the user picks",
		func(ctx context.Context, in meeting, answer slot) (string, error) {
			if answer.Cancelled || answer.ChosenTime == "" {
				return "The user did not pick a time: nothing was booked.", nil
			}
			when := answer.ChosenLabel
			if when == "" {
				when = answer.ChosenTime
			}
			return fmt.Sprintf("Booked %q with %s for %s.", in.Topic, orAnyone(in.Attendee), when), nil
		})
	if err != nil {
		return err
	}
	a, err := loop.New(provider, loop.WithTools(tool),
		loop.WithInstructions("You schedule meetings. Call schedule_meeting with the topic and the attendee; the user picks the time."))
	if err != nil {
		return err
	}
	return ginagui.Register(g, path, a, opts...)
}

// orAnyone names the attendee, or says there is none.
func orAnyone(attendee string) string {
	if attendee == "" {
		return "the attendees"
	}
	return attendee
}
