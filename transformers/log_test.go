package transformers

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/agui-go/agui/core"
)

func TestLog(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{
		Level: slog.LevelDebug,
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	}))
	events := stream(evs(started()),
		evs(tagged("sub-1", &core.TextMessageStart{MessageID: "m1", Role: core.RoleAssistant}),
			&core.TextMessageContent{MessageID: "m1", Delta: "secret text"},
			&core.TextMessageEnd{MessageID: "m1"}),
		call("tc1", "search", `{"q":"secret args"}`, "secret result"),
		evs(&core.RunError{Message: "boom", Code: "AGENT_ERROR"}))
	out := runChain(t, input(), events, Log(logger, slog.LevelDebug))
	if len(out) != len(events) {
		t.Fatalf("Log changed the stream: %d events in, %d out", len(events), len(out))
	}
	want := []string{
		`{"level":"DEBUG","msg":"agui event","thread_id":"thread-1","run_id":"run-1","type":"RUN_STARTED"}`,
		`{"level":"DEBUG","msg":"agui event","thread_id":"thread-1","run_id":"run-1","type":"TEXT_MESSAGE_START","message_id":"m1","role":"assistant","subagent":"sub-1"}`,
		`{"level":"DEBUG","msg":"agui event","thread_id":"thread-1","run_id":"run-1","type":"TEXT_MESSAGE_CONTENT","message_id":"m1"}`,
		`{"level":"DEBUG","msg":"agui event","thread_id":"thread-1","run_id":"run-1","type":"TEXT_MESSAGE_END","message_id":"m1"}`,
		`{"level":"DEBUG","msg":"agui event","thread_id":"thread-1","run_id":"run-1","type":"TOOL_CALL_START","tool_call_id":"tc1","tool_call_name":"search"}`,
		`{"level":"DEBUG","msg":"agui event","thread_id":"thread-1","run_id":"run-1","type":"TOOL_CALL_ARGS","tool_call_id":"tc1"}`,
		`{"level":"DEBUG","msg":"agui event","thread_id":"thread-1","run_id":"run-1","type":"TOOL_CALL_END","tool_call_id":"tc1"}`,
		`{"level":"DEBUG","msg":"agui event","thread_id":"thread-1","run_id":"run-1","type":"TOOL_CALL_RESULT","tool_call_id":"tc1","message_id":"r-tc1"}`,
		`{"level":"DEBUG","msg":"agui event","thread_id":"thread-1","run_id":"run-1","type":"RUN_ERROR","code":"AGENT_ERROR"}`,
	}
	got := strings.Split(strings.TrimSpace(buf.String()), "\n")
	sameList(t, got, want)
	if strings.Contains(buf.String(), "secret") {
		t.Error("Log logged content")
	}
}

func TestLogLevel(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo}))
	runChain(t, input(), evs(started(), finished()), Log(logger, slog.LevelDebug))
	if buf.Len() != 0 {
		t.Errorf("debug records reached an info logger: %s", buf.String())
	}
	runChain(t, input(), evs(started(), finished()), Log(logger, slog.LevelWarn))
	if n := strings.Count(buf.String(), "agui event"); n != 2 {
		t.Errorf("%d warn records, want 2:\n%s", n, buf.String())
	}
	// A nil logger uses the default one; at debug level it drops the records.
	runChain(t, input(), evs(started(), finished()), Log(nil, slog.LevelDebug))
}

// TestEventAttrsCoverEveryType makes sure every event type is logged with
// its type and is valid JSON through a JSON handler.
func TestEventAttrsCoverEveryType(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&buf, nil))
	for _, ev := range allEvents(t) {
		buf.Reset()
		logger.LogAttrs(t.Context(), slog.LevelInfo, "e", eventAttrs(ev)...)
		var rec map[string]any
		if err := json.Unmarshal(buf.Bytes(), &rec); err != nil {
			t.Fatalf("%s: %v", ev.Type(), err)
		}
		if rec["type"] != string(ev.Type()) {
			t.Errorf("type = %v, want %s", rec["type"], ev.Type())
		}
	}
}

// allEvents returns one event of each of the 31 types.
func allEvents(t *testing.T) []core.Event {
	out := []core.Event{
		&core.TextMessageStart{MessageID: "m"}, &core.TextMessageContent{MessageID: "m"}, &core.TextMessageEnd{MessageID: "m"},
		&core.TextMessageChunk{MessageID: "m"}, &core.ToolCallStart{ToolCallID: "t", ToolCallName: "n"},
		&core.ToolCallArgs{ToolCallID: "t"}, &core.ToolCallEnd{ToolCallID: "t"}, &core.ToolCallChunk{ToolCallID: "t"},
		&core.ToolCallResult{ToolCallID: "t", MessageID: "r"}, &core.StateSnapshot{}, &core.StateDelta{},
		&core.MessagesSnapshot{}, &core.ActivitySnapshot{MessageID: "a"}, &core.ActivityDelta{MessageID: "a"},
		&core.Raw{Source: "s"}, &core.Custom{Name: "c"}, &core.RunStarted{RunID: "r"}, &core.RunFinished{},
		&core.RunError{Code: "X"}, &core.StepStarted{StepName: "s"}, &core.StepFinished{StepName: "s"},
		&core.ReasoningStart{MessageID: "r"}, &core.ReasoningMessageStart{MessageID: "r"},
		&core.ReasoningMessageContent{MessageID: "r"}, &core.ReasoningMessageEnd{MessageID: "r"},
		&core.ReasoningMessageChunk{MessageID: "r"}, &core.ReasoningEnd{MessageID: "r"},
		&core.ReasoningEncryptedValue{EntityID: "e"}, &core.SubagentStarted{SubagentRunID: "s"},
		&core.SubagentFinished{SubagentRunID: "s"}, &core.SubagentError{SubagentRunID: "s"},
	}
	if len(out) != len(core.EventTypes()) {
		t.Fatalf("allEvents has %d events for %d types", len(out), len(core.EventTypes()))
	}
	return out
}
