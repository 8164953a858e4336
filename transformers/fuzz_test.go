package transformers

import (
	"bytes"
	"io"
	"log/slog"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// FuzzTransformers passes arbitrary decoded event streams (one JSON event a
// line) through every built-in: whatever the stream, no transformer may
// panic or hang; errors are allowed.
func FuzzTransformers(f *testing.F) {
	for _, seed := range [][]agui.Event{
		delegation(),
		stream(evs(started()), call("tc1", "search", `{}`, `[1]`), call("tc2", "secret", `{}`, `x`), evs(finished())),
	} {
		var b []byte
		for _, ev := range seed {
			var err error
			if b, err = ev.AppendJSON(b); err != nil {
				f.Fatal(err)
			}
			b = append(b, '\n')
		}
		f.Add(b)
	}
	toState, err := ToolResultToState(
		StateMapping{Tool: "search", Path: "/search/results"},
		StateMapping{Tool: "estimate", Path: "/e/-", Merge: func(cur, res any) (any, error) { return res, nil }},
	)
	if err != nil {
		f.Fatal(err)
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	factories := []core.TransformerFactory{
		DenyToolCalls("secret", "delegate"), toState,
		SubagentVisibility(VisibilityHidden), SubagentVisibility(VisibilityInline),
		Log(logger, slog.LevelInfo), Metrics(&recordingSink{}),
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var events []agui.Event
		for _, line := range bytes.Split(data, []byte("\n")) {
			if ev, err := agui.DecodeEvent(line); err == nil {
				events = append(events, ev)
			}
		}
		_, _ = pass(input(), events, factories...)
	})
}
