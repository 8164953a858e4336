package bench

import (
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core/coretest"
)

// aguiImpl frames events with agui.AppendSSE into one reused buffer,
// writing and flushing each frame, as the SDK's transports do.
func aguiImpl() impl {
	return impl{
		name: "agui",
		prebuilt: func() func(sink) error {
			evs := coretest.StandardFixture()
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
			state := coretest.FixtureState()
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
				if err := emit(&agui.RunStarted{Base: now(), ThreadID: coretest.FixtureThreadID, RunID: coretest.FixtureRunID}); err != nil {
					return err
				}
				if err := emit(&agui.TextMessageStart{Base: now(), MessageID: coretest.FixtureMessageID, Role: agui.RoleAssistant}); err != nil {
					return err
				}
				for _, d := range deltas {
					if err := emit(&agui.TextMessageContent{Base: now(), MessageID: coretest.FixtureMessageID, Delta: d}); err != nil {
						return err
					}
				}
				if err := emit(&agui.TextMessageEnd{Base: now(), MessageID: coretest.FixtureMessageID}); err != nil {
					return err
				}
				if err := emit(&agui.ToolCallStart{Base: now(), ToolCallID: coretest.FixtureToolCallID, ToolCallName: coretest.FixtureToolName}); err != nil {
					return err
				}
				for _, a := range args {
					if err := emit(&agui.ToolCallArgs{Base: now(), ToolCallID: coretest.FixtureToolCallID, Delta: a}); err != nil {
						return err
					}
				}
				if err := emit(&agui.ToolCallEnd{Base: now(), ToolCallID: coretest.FixtureToolCallID}); err != nil {
					return err
				}
				if err := emit(&agui.ToolCallResult{Base: now(), MessageID: coretest.FixtureToolMessageID, ToolCallID: coretest.FixtureToolCallID,
					Content: agui.TextContent(coretest.FixtureToolResult), Role: agui.RoleTool}); err != nil {
					return err
				}
				if err := emit(&agui.StateSnapshot{Base: now(), Snapshot: state}); err != nil {
					return err
				}
				return emit(&agui.RunFinished{Base: now(), ThreadID: coretest.FixtureThreadID, RunID: coretest.FixtureRunID,
					Outcome: &agui.Outcome{Type: agui.OutcomeSuccess}})
			}
		},
	}
}

// fixtureStrings returns the text deltas and argument chunks of the
// fixture, computed once so that build mode times event construction, not
// string formatting.
func fixtureStrings() (deltas, args []string) {
	deltas = make([]string, coretest.FixtureDeltas)
	for i := range deltas {
		deltas[i] = coretest.FixtureDelta(i)
	}
	args = make([]string, coretest.FixtureArgChunks)
	for i := range args {
		args[i] = coretest.FixtureArgChunk(i)
	}
	return deltas, args
}
