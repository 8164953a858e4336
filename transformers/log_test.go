package transformers

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/agui-go/agui"
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
		evs(tagged("sub-1", &agui.TextMessageStart{MessageID: "m1", Role: agui.RoleAssistant}),
			&agui.TextMessageContent{MessageID: "m1", Delta: "secret text"},
			&agui.TextMessageEnd{MessageID: "m1"}),
		call("tc1", "search", `{"q":"secret args"}`, "secret result"),
		evs(&agui.RunError{Message: "boom", Code: "AGENT_ERROR"}))
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
func allEvents(t *testing.T) []agui.Event {
	out := []agui.Event{
		&agui.TextMessageStart{MessageID: "m"}, &agui.TextMessageContent{MessageID: "m"}, &agui.TextMessageEnd{MessageID: "m"},
		&agui.TextMessageChunk{MessageID: "m"}, &agui.ToolCallStart{ToolCallID: "t", ToolCallName: "n"},
		&agui.ToolCallArgs{ToolCallID: "t"}, &agui.ToolCallEnd{ToolCallID: "t"}, &agui.ToolCallChunk{ToolCallID: "t"},
		&agui.ToolCallResult{ToolCallID: "t", MessageID: "r"}, &agui.StateSnapshot{}, &agui.StateDelta{},
		&agui.MessagesSnapshot{}, &agui.ActivitySnapshot{MessageID: "a"}, &agui.ActivityDelta{MessageID: "a"},
		&agui.Raw{Source: "s"}, &agui.Custom{Name: "c"}, &agui.RunStarted{RunID: "r"}, &agui.RunFinished{},
		&agui.RunError{Code: "X"}, &agui.StepStarted{StepName: "s"}, &agui.StepFinished{StepName: "s"},
		&agui.ReasoningStart{MessageID: "r"}, &agui.ReasoningMessageStart{MessageID: "r"},
		&agui.ReasoningMessageContent{MessageID: "r"}, &agui.ReasoningMessageEnd{MessageID: "r"},
		&agui.ReasoningMessageChunk{MessageID: "r"}, &agui.ReasoningEnd{MessageID: "r"},
		&agui.ReasoningEncryptedValue{EntityID: "e"}, &agui.SubagentStarted{SubagentRunID: "s"},
		&agui.SubagentFinished{SubagentRunID: "s"}, &agui.SubagentError{SubagentRunID: "s"},
	}
	if len(out) != len(agui.EventTypes()) {
		t.Fatalf("allEvents has %d events for %d types", len(out), len(agui.EventTypes()))
	}
	return out
}
