package aguitest

import (
	"fmt"
	"strings"

	"github.com/agui-go/agui"
)

// The identifiers and sizes of the standard fixture (the standard benchmark fixture).
const (
	FixtureThreadID      = "thread-7f3a2c1e"
	FixtureRunID         = "run-0b9d4e62"
	FixtureMessageID     = "msg-5c1f8a90"
	FixtureToolCallID    = "call-3e7b2d41"
	FixtureToolName      = "search_recipes"
	FixtureToolMessageID = "msg-tool-9a2b"
	// FixtureTimestamp is the timestamp of every event, in Unix
	// milliseconds (2026-01-01T00:00:00Z).
	FixtureTimestamp int64 = 1767225600000

	// FixtureEvents is the number of events in one run.
	FixtureEvents = 1018
	// FixtureDeltas is the number of TEXT_MESSAGE_CONTENT events, each
	// with a 20-byte delta.
	FixtureDeltas = 1000
	// FixtureArgChunks is the number of TOOL_CALL_ARGS events.
	FixtureArgChunks = 10
	// FixturePayloadBytes is the size of one run framed as SSE
	// ("data: <json>\n\n" per event), as measured for the other SDKs.
	FixturePayloadBytes = 127230

	// FixtureToolArgs is the tool call's 121-byte JSON arguments, streamed
	// in [FixtureArgChunks] pieces.
	FixtureToolArgs = `{"query":"vegetarian lasagna with spinach and ricotta","max_results":10,"filters":{"cuisine":"italian","max_minutes":90}}`
	// FixtureToolResult is the tool result's 112-byte content string.
	FixtureToolResult = `{"results":[{"id":"r1","title":"Spinach Lasagna","minutes":75},{"id":"r2","title":"Ricotta Bake","minutes":60}]}`
)

const deltaSize = 20

// FixtureDelta returns the delta of the i-th TEXT_MESSAGE_CONTENT
// (0 <= i < [FixtureDeltas]): two words and the index, padded with dots and
// cut to exactly 20 bytes.
func FixtureDelta(i int) string {
	words := [...]string{"the ", "quick ", "brown ", "fox ", "jumps ", "over ", "a ", "lazy ", "dog, ", "then "}
	s := words[i%10] + words[(i+3)%10] + fmt.Sprintf("%03d ", i)
	if len(s) < deltaSize {
		s += strings.Repeat(".", deltaSize-len(s))
	}
	return s[:deltaSize]
}

// FixtureArgChunk returns the i-th piece of [FixtureToolArgs]
// (0 <= i < [FixtureArgChunks]).
func FixtureArgChunk(i int) string {
	n := len(FixtureToolArgs)
	return FixtureToolArgs[i*n/FixtureArgChunks : (i+1)*n/FixtureArgChunks]
}

// FixtureState returns a new copy of the snapshot state: a recipe with 16
// ingredients and 8 steps, a ui object and a revision, 2,104 bytes as JSON.
// Numbers are float64, as after decoding JSON.
func FixtureState() map[string]any {
	units := [...]string{"g", "ml", "cup", "tbsp", "pcs"}
	ingredients := make([]any, 16)
	for i := range ingredients {
		ingredients[i] = map[string]any{
			"name":     fmt.Sprintf("ingredient-%02d", i+1),
			"quantity": float64(i%5 + 1),
			"unit":     units[i%5],
			"optional": i%4 == 0,
		}
	}
	steps := make([]any, 8)
	for i := range steps {
		steps[i] = map[string]any{
			"index": float64(i),
			"text":  fmt.Sprintf("Step %d: ", i+1) + strings.Repeat("stir gently ", 5),
			"done":  i < 3,
		}
	}
	return map[string]any{
		"recipe": map[string]any{
			"title":       "Vegetarian Lasagna",
			"servings":    float64(6),
			"tags":        []any{"vegetarian", "italian", "baked", "family"},
			"ingredients": ingredients,
			"steps":       steps,
		},
		"ui":       map[string]any{"selectedTab": "ingredients", "expanded": true, "scroll": float64(120)},
		"revision": float64(42),
	}
}

// StandardFixture returns a new copy of the standard run: RUN_STARTED,
// TEXT_MESSAGE_START (assistant), [FixtureDeltas] × TEXT_MESSAGE_CONTENT,
// TEXT_MESSAGE_END, TOOL_CALL_START, [FixtureArgChunks] × TOOL_CALL_ARGS,
// TOOL_CALL_END, TOOL_CALL_RESULT (role tool), STATE_SNAPSHOT and
// RUN_FINISHED with a success outcome, every event stamped
// [FixtureTimestamp].
//
// RUN_STARTED carries no protocolVersion, unlike a run of core's runner:
// the fixture is the one every implementation is measured on, and older
// SDKs have no such field.
func StandardFixture() []agui.Event {
	base := agui.Base{Timestamp: FixtureTimestamp}
	evs := make([]agui.Event, 0, FixtureEvents)
	evs = append(evs,
		&agui.RunStarted{Base: base, ThreadID: FixtureThreadID, RunID: FixtureRunID},
		&agui.TextMessageStart{Base: base, MessageID: FixtureMessageID, Role: agui.RoleAssistant},
	)
	for i := range FixtureDeltas {
		evs = append(evs, &agui.TextMessageContent{Base: base, MessageID: FixtureMessageID, Delta: FixtureDelta(i)})
	}
	evs = append(evs,
		&agui.TextMessageEnd{Base: base, MessageID: FixtureMessageID},
		&agui.ToolCallStart{Base: base, ToolCallID: FixtureToolCallID, ToolCallName: FixtureToolName},
	)
	for i := range FixtureArgChunks {
		evs = append(evs, &agui.ToolCallArgs{Base: base, ToolCallID: FixtureToolCallID, Delta: FixtureArgChunk(i)})
	}
	return append(evs,
		&agui.ToolCallEnd{Base: base, ToolCallID: FixtureToolCallID},
		&agui.ToolCallResult{Base: base, MessageID: FixtureToolMessageID, ToolCallID: FixtureToolCallID,
			Content: agui.TextContent(FixtureToolResult), Role: agui.RoleTool},
		&agui.StateSnapshot{Base: base, Snapshot: FixtureState()},
		&agui.RunFinished{Base: base, ThreadID: FixtureThreadID, RunID: FixtureRunID,
			Outcome: &agui.Outcome{Type: agui.OutcomeSuccess}},
	)
}
