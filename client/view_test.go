package client_test

import (
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/client"
)

// run replays frames into a client and returns the view and warnings.
func runFrames(t *testing.T, in *agui.RunAgentInput, frames ...string) (*client.View, []client.Warning) {
	t.Helper()
	var warnings []client.Warning
	agent, err := client.New(replayServer(t, frames...), client.WithWarnings(func(w client.Warning) { warnings = append(warnings, w) }))
	if err != nil {
		t.Fatal(err)
	}
	view, err := agent.Run(t.Context(), in)
	if err != nil {
		t.Fatal(err)
	}
	return view, warnings
}

func ids(ms []agui.Message) []string {
	var out []string
	for _, m := range ms {
		out = append(out, string(m.Role())+":"+m.MessageID())
	}
	return out
}

// A tool result lands right after the message that made the call, not
// after text that came later, and a replayed start holds the call once.
func TestToolResultFollowsItsCall(t *testing.T) {
	view, _ := runFrames(t, agui.NewInput("t", "r"),
		`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"search","parentMessageId":"a1"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{}"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c1"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"a2","role":"assistant"}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"a2"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"search","parentMessageId":"a1"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c1"}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"t1","toolCallId":"c1","content":"found"}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`)
	got := ids(view.Messages)
	want := []string{"assistant:a1", "tool:t1", "assistant:a2"}
	if len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("messages %v, want %v", got, want)
	}
	if calls := view.Messages[0].(*agui.AssistantMessage).ToolCalls; len(calls) != 1 || calls[0].Function.Arguments != "{}" {
		t.Errorf("tool calls %+v, want c1 once with its arguments", calls)
	}
}

// A snapshot without activities keeps the client's activity messages, and
// drops the other messages it does not hold.
func TestMessagesSnapshotKeepsActivities(t *testing.T) {
	view, _ := runFrames(t, agui.NewInput("t", "r"),
		`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`,
		`{"type":"ACTIVITY_SNAPSHOT","messageId":"act","activityType":"plan","content":{"step":1}}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"gone","role":"assistant"}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"gone"}`,
		`{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"u1","role":"user","content":"hi"}]}`,
		`{"type":"ACTIVITY_DELTA","messageId":"act","activityType":"plan","patch":[{"op":"replace","path":"/step","value":2}]}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`)
	if got := ids(view.Messages); len(got) != 2 || got[0] != "activity:act" || got[1] != "user:u1" {
		t.Fatalf("messages %v, want the activity kept and the snapshot's user message", got)
	}
	acts := view.Activities()
	if len(acts) != 1 || acts[0].Content["step"] != float64(2) {
		t.Errorf("activities %+v, want step 2", acts)
	}
}

type plan struct {
	Steps []string `json:"steps"`
}

func TestStateTyped(t *testing.T) {
	in := agui.NewInput("t", "r")
	in.State = map[string]any{"steps": []string{"a"}}
	view, warnings := runFrames(t, in,
		`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`,
		`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/steps/-","value":"b"}]}`,
		`{"type":"STATE_DELTA","delta":[{"op":"remove","path":"/nothing"}]}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`)
	p, err := client.State[plan](view)
	if err != nil || len(p.Steps) != 2 || p.Steps[1] != "b" {
		t.Fatalf("state %+v, %v; want steps a, b", p, err)
	}
	if len(warnings) != 1 {
		t.Errorf("warnings %+v, want one for the patch that does not apply", warnings)
	}
	if _, err := client.State[int](view); agui.CodeOf(err) != agui.CodeSerialization {
		t.Errorf("State[int] of an object: %v, want a SERIALIZATION error", err)
	}
}

// An encrypted value is stored with its encryptedValueType (AG-UI 1.1), on
// a message and on a tool call; a later value without a type deletes the
// stored type, since a type labels one value.
func TestEncryptedValueKeepsItsType(t *testing.T) {
	view, _ := runFrames(t, agui.NewInput("t", "r"),
		`{"type":"RUN_STARTED","threadId":"t","runId":"r","protocolVersion":"1.1"}`,
		`{"type":"REASONING_START","messageId":"r1"}`,
		`{"type":"REASONING_MESSAGE_START","messageId":"r1","role":"reasoning"}`,
		`{"type":"REASONING_MESSAGE_CONTENT","messageId":"r1","delta":"hm"}`,
		`{"type":"REASONING_MESSAGE_END","messageId":"r1"}`,
		`{"type":"REASONING_END","messageId":"r1"}`,
		`{"type":"REASONING_ENCRYPTED_VALUE","subtype":"message","entityId":"r1","encryptedValue":"c2ln","encryptedValueType":"anthropic.thinking_signature"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"search","parentMessageId":"a1"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c1"}`,
		`{"type":"REASONING_ENCRYPTED_VALUE","subtype":"tool-call","entityId":"c1","encryptedValue":"dGM=","encryptedValueType":"acme.call"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"m1"}`,
		`{"type":"REASONING_ENCRYPTED_VALUE","subtype":"message","entityId":"m1","encryptedValue":"YQ==","encryptedValueType":"acme.first"}`,
		`{"type":"REASONING_ENCRYPTED_VALUE","subtype":"message","entityId":"m1","encryptedValue":"Yg=="}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`,
	)
	got := map[string][2]string{}
	for _, m := range view.Messages {
		switch m := m.(type) {
		case *agui.ReasoningMessage:
			got[m.ID] = [2]string{m.EncryptedValue, m.EncryptedValueType}
		case *agui.AssistantMessage:
			got[m.ID] = [2]string{m.EncryptedValue, m.EncryptedValueType}
			for _, tc := range m.ToolCalls {
				got[tc.ID] = [2]string{tc.EncryptedValue, tc.EncryptedValueType}
			}
		}
	}
	want := map[string][2]string{
		"r1": {"c2ln", "anthropic.thinking_signature"},
		"a1": {"", ""},
		"c1": {"dGM=", "acme.call"},
		"m1": {"Yg==", ""},
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s: value and type %q, want %q (messages %v)", id, got[id], w, ids(view.Messages))
		}
	}
}
