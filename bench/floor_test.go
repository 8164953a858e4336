package bench

import (
	"encoding/json"
	"time"

	"github.com/agui-go/agui/aguitest"
)

// The floor: plain, implementation-neutral structs with the fixture's JSON,
// encoded with json.Marshal and framed as "data: …\n\n" into one reused
// buffer. It is what "just use encoding/json" costs.

type floorRunStarted struct {
	Type      string `json:"type"`
	Timestamp int64  `json:"timestamp"`
	ThreadID  string `json:"threadId"`
	RunID     string `json:"runId"`
}

type floorOutcome struct {
	Type string `json:"type"`
}

type floorRunFinished struct {
	Type      string        `json:"type"`
	Timestamp int64         `json:"timestamp"`
	ThreadID  string        `json:"threadId"`
	RunID     string        `json:"runId"`
	Outcome   *floorOutcome `json:"outcome,omitempty"`
}

type floorTextStart struct {
	Type      string `json:"type"`
	Timestamp int64  `json:"timestamp"`
	MessageID string `json:"messageId"`
	Role      string `json:"role,omitempty"`
}

type floorTextContent struct {
	Type      string `json:"type"`
	Timestamp int64  `json:"timestamp"`
	MessageID string `json:"messageId"`
	Delta     string `json:"delta"`
}

type floorTextEnd struct {
	Type      string `json:"type"`
	Timestamp int64  `json:"timestamp"`
	MessageID string `json:"messageId"`
}

type floorToolStart struct {
	Type         string `json:"type"`
	Timestamp    int64  `json:"timestamp"`
	ToolCallID   string `json:"toolCallId"`
	ToolCallName string `json:"toolCallName"`
}

type floorToolArgs struct {
	Type       string `json:"type"`
	Timestamp  int64  `json:"timestamp"`
	ToolCallID string `json:"toolCallId"`
	Delta      string `json:"delta"`
}

type floorToolEnd struct {
	Type       string `json:"type"`
	Timestamp  int64  `json:"timestamp"`
	ToolCallID string `json:"toolCallId"`
}

type floorToolResult struct {
	Type       string `json:"type"`
	Timestamp  int64  `json:"timestamp"`
	MessageID  string `json:"messageId"`
	ToolCallID string `json:"toolCallId"`
	Content    string `json:"content"`
	Role       string `json:"role,omitempty"`
}

type floorState struct {
	Type      string `json:"type"`
	Timestamp int64  `json:"timestamp"`
	Snapshot  any    `json:"snapshot"`
}

// floorWriter frames json.Marshal output into a reused buffer.
type floorWriter struct{ buf []byte }

func (f *floorWriter) write(w sink, ev any) error {
	data, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	f.buf = append(f.buf[:0], "data: "...)
	f.buf = append(f.buf, data...)
	f.buf = append(f.buf, '\n', '\n')
	if _, err := w.Write(f.buf); err != nil {
		return err
	}
	w.Flush()
	return nil
}

func floorImpl() impl {
	return impl{
		name: "floor",
		prebuilt: func() func(sink) error {
			deltas, args := fixtureStrings()
			evs := floorEvents(func() int64 { return aguitest.FixtureTimestamp }, deltas, args, aguitest.FixtureState())
			fw := &floorWriter{buf: make([]byte, 0, 16<<10)}
			return func(w sink) error {
				for _, ev := range evs {
					if err := fw.write(w, ev); err != nil {
						return err
					}
				}
				return nil
			}
		},
		build: func() func(sink) error {
			deltas, args := fixtureStrings()
			state := aguitest.FixtureState()
			fw := &floorWriter{buf: make([]byte, 0, 16<<10)}
			now := func() int64 { return time.Now().UnixMilli() }
			return func(w sink) error {
				write := func(ev any) error { return fw.write(w, ev) }
				if err := write(&floorRunStarted{"RUN_STARTED", now(), aguitest.FixtureThreadID, aguitest.FixtureRunID}); err != nil {
					return err
				}
				if err := write(&floorTextStart{"TEXT_MESSAGE_START", now(), aguitest.FixtureMessageID, "assistant"}); err != nil {
					return err
				}
				for _, d := range deltas {
					if err := write(&floorTextContent{"TEXT_MESSAGE_CONTENT", now(), aguitest.FixtureMessageID, d}); err != nil {
						return err
					}
				}
				if err := write(&floorTextEnd{"TEXT_MESSAGE_END", now(), aguitest.FixtureMessageID}); err != nil {
					return err
				}
				if err := write(&floorToolStart{"TOOL_CALL_START", now(), aguitest.FixtureToolCallID, aguitest.FixtureToolName}); err != nil {
					return err
				}
				for _, a := range args {
					if err := write(&floorToolArgs{"TOOL_CALL_ARGS", now(), aguitest.FixtureToolCallID, a}); err != nil {
						return err
					}
				}
				if err := write(&floorToolEnd{"TOOL_CALL_END", now(), aguitest.FixtureToolCallID}); err != nil {
					return err
				}
				if err := write(&floorToolResult{"TOOL_CALL_RESULT", now(), aguitest.FixtureToolMessageID, aguitest.FixtureToolCallID, aguitest.FixtureToolResult, "tool"}); err != nil {
					return err
				}
				if err := write(&floorState{"STATE_SNAPSHOT", now(), state}); err != nil {
					return err
				}
				return write(&floorRunFinished{"RUN_FINISHED", now(), aguitest.FixtureThreadID, aguitest.FixtureRunID, &floorOutcome{"success"}})
			}
		},
	}
}

// floorEvents builds the fixture as plain structs, stamped by ts.
func floorEvents(ts func() int64, deltas, args []string, state map[string]any) []any {
	evs := make([]any, 0, aguitest.FixtureEvents)
	evs = append(evs,
		&floorRunStarted{"RUN_STARTED", ts(), aguitest.FixtureThreadID, aguitest.FixtureRunID},
		&floorTextStart{"TEXT_MESSAGE_START", ts(), aguitest.FixtureMessageID, "assistant"},
	)
	for _, d := range deltas {
		evs = append(evs, &floorTextContent{"TEXT_MESSAGE_CONTENT", ts(), aguitest.FixtureMessageID, d})
	}
	evs = append(evs,
		&floorTextEnd{"TEXT_MESSAGE_END", ts(), aguitest.FixtureMessageID},
		&floorToolStart{"TOOL_CALL_START", ts(), aguitest.FixtureToolCallID, aguitest.FixtureToolName},
	)
	for _, a := range args {
		evs = append(evs, &floorToolArgs{"TOOL_CALL_ARGS", ts(), aguitest.FixtureToolCallID, a})
	}
	return append(evs,
		&floorToolEnd{"TOOL_CALL_END", ts(), aguitest.FixtureToolCallID},
		&floorToolResult{"TOOL_CALL_RESULT", ts(), aguitest.FixtureToolMessageID, aguitest.FixtureToolCallID, aguitest.FixtureToolResult, "tool"},
		&floorState{"STATE_SNAPSHOT", ts(), state},
		&floorRunFinished{"RUN_FINISHED", ts(), aguitest.FixtureThreadID, aguitest.FixtureRunID, &floorOutcome{"success"}},
	)
}
