package bench

import (
	"context"

	"github.com/ag-ui-protocol/ag-ui/sdks/community/go/pkg/core/events"
	"github.com/ag-ui-protocol/ag-ui/sdks/community/go/pkg/encoding/sse"
	"github.com/agui-go/agui/aguitest"
)

// communityImpl writes each event with the Go community SDK's
// SSEWriter.WriteEvent, building events with its constructors.
func communityImpl() impl {
	return impl{
		name: "community",
		prebuilt: func() func(sink) error {
			deltas, args := fixtureStrings()
			evs := communityEvents(deltas, args, aguitest.FixtureState())
			for _, ev := range evs {
				// The constructors stamp the current time; the prebuilt
				// fixture carries the fixed one.
				ev.SetTimestamp(aguitest.FixtureTimestamp)
			}
			sw := sse.NewSSEWriter()
			ctx := context.Background()
			return func(w sink) error {
				for _, ev := range evs {
					if err := sw.WriteEvent(ctx, w, ev); err != nil {
						return err
					}
				}
				return nil
			}
		},
		build: func() func(sink) error {
			deltas, args := fixtureStrings()
			state := aguitest.FixtureState()
			sw := sse.NewSSEWriter()
			ctx := context.Background()
			return func(w sink) error {
				write := func(ev events.Event) error { return sw.WriteEvent(ctx, w, ev) }
				if err := write(events.NewRunStartedEvent(aguitest.FixtureThreadID, aguitest.FixtureRunID)); err != nil {
					return err
				}
				if err := write(events.NewTextMessageStartEvent(aguitest.FixtureMessageID, events.WithRole("assistant"))); err != nil {
					return err
				}
				for _, d := range deltas {
					if err := write(events.NewTextMessageContentEvent(aguitest.FixtureMessageID, d)); err != nil {
						return err
					}
				}
				if err := write(events.NewTextMessageEndEvent(aguitest.FixtureMessageID)); err != nil {
					return err
				}
				if err := write(events.NewToolCallStartEvent(aguitest.FixtureToolCallID, aguitest.FixtureToolName)); err != nil {
					return err
				}
				for _, a := range args {
					if err := write(events.NewToolCallArgsEvent(aguitest.FixtureToolCallID, a)); err != nil {
						return err
					}
				}
				if err := write(events.NewToolCallEndEvent(aguitest.FixtureToolCallID)); err != nil {
					return err
				}
				if err := write(events.NewToolCallResultEvent(aguitest.FixtureToolMessageID, aguitest.FixtureToolCallID, aguitest.FixtureToolResult)); err != nil {
					return err
				}
				if err := write(events.NewStateSnapshotEvent(state)); err != nil {
					return err
				}
				return write(events.NewRunFinishedEventWithOptions(aguitest.FixtureThreadID, aguitest.FixtureRunID,
					events.WithOutcome(events.RunFinishedOutcome{Type: events.RunFinishedOutcomeTypeSuccess})))
			}
		},
	}
}

// communityEvents builds the fixture with the community SDK's constructors.
func communityEvents(deltas, args []string, state map[string]any) []events.Event {
	evs := make([]events.Event, 0, aguitest.FixtureEvents)
	evs = append(evs,
		events.NewRunStartedEvent(aguitest.FixtureThreadID, aguitest.FixtureRunID),
		events.NewTextMessageStartEvent(aguitest.FixtureMessageID, events.WithRole("assistant")),
	)
	for _, d := range deltas {
		evs = append(evs, events.NewTextMessageContentEvent(aguitest.FixtureMessageID, d))
	}
	evs = append(evs,
		events.NewTextMessageEndEvent(aguitest.FixtureMessageID),
		events.NewToolCallStartEvent(aguitest.FixtureToolCallID, aguitest.FixtureToolName),
	)
	for _, a := range args {
		evs = append(evs, events.NewToolCallArgsEvent(aguitest.FixtureToolCallID, a))
	}
	return append(evs,
		events.NewToolCallEndEvent(aguitest.FixtureToolCallID),
		events.NewToolCallResultEvent(aguitest.FixtureToolMessageID, aguitest.FixtureToolCallID, aguitest.FixtureToolResult),
		events.NewStateSnapshotEvent(state),
		events.NewRunFinishedEventWithOptions(aguitest.FixtureThreadID, aguitest.FixtureRunID,
			events.WithOutcome(events.RunFinishedOutcome{Type: events.RunFinishedOutcomeTypeSuccess})),
	)
}
