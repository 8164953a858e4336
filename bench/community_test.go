package bench

import (
	"context"

	"github.com/ag-ui-protocol/ag-ui/sdks/community/go/pkg/core/events"
	"github.com/ag-ui-protocol/ag-ui/sdks/community/go/pkg/encoding/sse"
	"github.com/agui-go/agui/core/coretest"
)

// communityImpl writes each event with the Go community SDK's
// SSEWriter.WriteEvent, building events with its constructors.
func communityImpl() impl {
	return impl{
		name: "community",
		prebuilt: func() func(sink) error {
			deltas, args := fixtureStrings()
			evs := communityEvents(deltas, args, coretest.FixtureState())
			for _, ev := range evs {
				// The constructors stamp the current time; the prebuilt
				// fixture carries the fixed one.
				ev.SetTimestamp(coretest.FixtureTimestamp)
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
			state := coretest.FixtureState()
			sw := sse.NewSSEWriter()
			ctx := context.Background()
			return func(w sink) error {
				write := func(ev events.Event) error { return sw.WriteEvent(ctx, w, ev) }
				if err := write(events.NewRunStartedEvent(coretest.FixtureThreadID, coretest.FixtureRunID)); err != nil {
					return err
				}
				if err := write(events.NewTextMessageStartEvent(coretest.FixtureMessageID, events.WithRole("assistant"))); err != nil {
					return err
				}
				for _, d := range deltas {
					if err := write(events.NewTextMessageContentEvent(coretest.FixtureMessageID, d)); err != nil {
						return err
					}
				}
				if err := write(events.NewTextMessageEndEvent(coretest.FixtureMessageID)); err != nil {
					return err
				}
				if err := write(events.NewToolCallStartEvent(coretest.FixtureToolCallID, coretest.FixtureToolName)); err != nil {
					return err
				}
				for _, a := range args {
					if err := write(events.NewToolCallArgsEvent(coretest.FixtureToolCallID, a)); err != nil {
						return err
					}
				}
				if err := write(events.NewToolCallEndEvent(coretest.FixtureToolCallID)); err != nil {
					return err
				}
				if err := write(events.NewToolCallResultEvent(coretest.FixtureToolMessageID, coretest.FixtureToolCallID, coretest.FixtureToolResult)); err != nil {
					return err
				}
				if err := write(events.NewStateSnapshotEvent(state)); err != nil {
					return err
				}
				return write(events.NewRunFinishedEventWithOptions(coretest.FixtureThreadID, coretest.FixtureRunID,
					events.WithOutcome(events.RunFinishedOutcome{Type: events.RunFinishedOutcomeTypeSuccess})))
			}
		},
	}
}

// communityEvents builds the fixture with the community SDK's constructors.
func communityEvents(deltas, args []string, state map[string]any) []events.Event {
	evs := make([]events.Event, 0, coretest.FixtureEvents)
	evs = append(evs,
		events.NewRunStartedEvent(coretest.FixtureThreadID, coretest.FixtureRunID),
		events.NewTextMessageStartEvent(coretest.FixtureMessageID, events.WithRole("assistant")),
	)
	for _, d := range deltas {
		evs = append(evs, events.NewTextMessageContentEvent(coretest.FixtureMessageID, d))
	}
	evs = append(evs,
		events.NewTextMessageEndEvent(coretest.FixtureMessageID),
		events.NewToolCallStartEvent(coretest.FixtureToolCallID, coretest.FixtureToolName),
	)
	for _, a := range args {
		evs = append(evs, events.NewToolCallArgsEvent(coretest.FixtureToolCallID, a))
	}
	return append(evs,
		events.NewToolCallEndEvent(coretest.FixtureToolCallID),
		events.NewToolCallResultEvent(coretest.FixtureToolMessageID, coretest.FixtureToolCallID, coretest.FixtureToolResult),
		events.NewStateSnapshotEvent(state),
		events.NewRunFinishedEventWithOptions(coretest.FixtureThreadID, coretest.FixtureRunID,
			events.WithOutcome(events.RunFinishedOutcome{Type: events.RunFinishedOutcomeTypeSuccess})),
	)
}
