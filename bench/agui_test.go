package bench

import (
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
)

// aguiImpl frames events with agui.AppendSSE into one reused buffer,
// writing and flushing each frame, as the SDK's transports do.
func aguiImpl() impl {
	return impl{
		name: "agui",
		prebuilt: func() func(sink) error {
			evs := aguitest.StandardFixture()
			buf := make([]byte, 0, 16<<10)
			return func(w sink) error {
				for _, ev := range evs {
					var err error
					if buf, err = agui.AppendSSE(buf[:0], ev); err != nil {
						return err
					}
					if _, err := w.Write(buf); err != nil {
						return err
					}
					w.Flush()
				}
				return nil
			}
		},
		build: func() func(sink) error {
			deltas, args := fixtureStrings()
			state := aguitest.FixtureState()
			buf := make([]byte, 0, 16<<10)
			return func(w sink) error {
				emit := func(ev agui.Event) error {
					var err error
					if buf, err = agui.AppendSSE(buf[:0], ev); err != nil {
						return err
					}
					if _, err := w.Write(buf); err != nil {
						return err
					}
					w.Flush()
					return nil
				}
				now := func() agui.Base { return agui.Base{Timestamp: time.Now().UnixMilli()} }
				if err := emit(&agui.RunStarted{Base: now(), ThreadID: aguitest.FixtureThreadID, RunID: aguitest.FixtureRunID}); err != nil {
					return err
				}
				if err := emit(&agui.TextMessageStart{Base: now(), MessageID: aguitest.FixtureMessageID, Role: agui.RoleAssistant}); err != nil {
					return err
				}
				for _, d := range deltas {
					if err := emit(&agui.TextMessageContent{Base: now(), MessageID: aguitest.FixtureMessageID, Delta: d}); err != nil {
						return err
					}
				}
				if err := emit(&agui.TextMessageEnd{Base: now(), MessageID: aguitest.FixtureMessageID}); err != nil {
					return err
				}
				if err := emit(&agui.ToolCallStart{Base: now(), ToolCallID: aguitest.FixtureToolCallID, ToolCallName: aguitest.FixtureToolName}); err != nil {
					return err
				}
				for _, a := range args {
					if err := emit(&agui.ToolCallArgs{Base: now(), ToolCallID: aguitest.FixtureToolCallID, Delta: a}); err != nil {
						return err
					}
				}
				if err := emit(&agui.ToolCallEnd{Base: now(), ToolCallID: aguitest.FixtureToolCallID}); err != nil {
					return err
				}
				if err := emit(&agui.ToolCallResult{Base: now(), MessageID: aguitest.FixtureToolMessageID, ToolCallID: aguitest.FixtureToolCallID,
					Content: agui.TextContent(aguitest.FixtureToolResult), Role: agui.RoleTool}); err != nil {
					return err
				}
				if err := emit(&agui.StateSnapshot{Base: now(), Snapshot: state}); err != nil {
					return err
				}
				return emit(&agui.RunFinished{Base: now(), ThreadID: aguitest.FixtureThreadID, RunID: aguitest.FixtureRunID,
					Outcome: &agui.Outcome{Type: agui.OutcomeSuccess}})
			}
		},
	}
}

// fixtureStrings returns the text deltas and argument chunks of the
// fixture, computed once so that build mode times event construction, not
// string formatting.
func fixtureStrings() (deltas, args []string) {
	deltas = make([]string, aguitest.FixtureDeltas)
	for i := range deltas {
		deltas[i] = aguitest.FixtureDelta(i)
	}
	args = make([]string, aguitest.FixtureArgChunks)
	for i := range args {
		args[i] = aguitest.FixtureArgChunk(i)
	}
	return deltas, args
}
