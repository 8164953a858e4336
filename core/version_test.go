package core_test

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
	"github.com/agui-go/agui/core"
)

// typedAgent emits the AG-UI 1.1 field, encryptedValueType, on a
// REASONING_ENCRYPTED_VALUE and on a message and tool call of a
// MESSAGES_SNAPSHOT.
func typedAgent() core.Agent[core.NoState] {
	return core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		if err := rc.Emit(&agui.MessagesSnapshot{Messages: []agui.Message{
			&agui.ReasoningMessage{ID: "r-1", Content: "", EncryptedValue: "c2ln", EncryptedValueType: "anthropic.thinking_signature"},
			&agui.AssistantMessage{ID: "a-1", Content: "hi", ToolCalls: []agui.ToolCall{{ID: "tc-1",
				Function: agui.FunctionCall{Name: "f", Arguments: "{}"}, EncryptedValue: "dGM=", EncryptedValueType: "acme.call"}}},
		}}); err != nil {
			return agui.Outcome{}, err
		}
		return agui.Success(), rc.Emit(&agui.ReasoningEncryptedValue{Subtype: agui.EncryptedMessage, EntityID: "r-1",
			EncryptedValue: "cmVk", EncryptedValueType: "anthropic.redacted_thinking"})
	})
}

// TestHandlerServesEachClientItsVersion: a client that declares 1.1 (or a
// newer minor) gets RUN_STARTED.protocolVersion "1.1" and every
// encryptedValueType; a 1.0 client and a client older than 1.0 get "1.0"
// and the stream without the type, values kept, exactly as before 1.1.
func TestHandlerServesEachClientItsVersion(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	srv := newServer(t, mustHandler(t, typedAgent(), core.WithHandlerLogger(slog.New(slog.NewJSONHandler(&logs, nil)))))
	body := func(version string) string {
		return `{"threadId":"t","runId":"r-` + version + `","protocolVersion":"` + version + `","messages":[]}`
	}
	for _, tc := range []struct {
		name, body, accept, version string
		types                       int
	}{
		{"1.1 client", body("1.1"), "text/event-stream", "1.1", 3},
		{"1.1 client over protobuf", body("1.1"), agui.ProtoContentType, "1.1", 3},
		{"1.2 client", body("1.2"), "text/event-stream", "1.1", 3},
		{"1.0 client", body("1.0"), "text/event-stream", "1.0", 0},
		{"1.0 client over protobuf", body("1.0"), agui.ProtoContentType, "1.0", 0},
		{"pre-1.0 client", legacyBody(), "text/event-stream", "1.0", 0},
	} {
		req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(tc.body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", tc.accept)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var evs []agui.Event
		if resp.Header.Get("Content-Type") == agui.ProtoContentType {
			evs = aguitest.ReadProto(t, resp.Body)
		} else {
			evs = aguitest.ReadSSE(t, resp.Body)
		}
		resp.Body.Close()
		want := []agui.EventType{agui.TypeRunStarted, agui.TypeMessagesSnapshot, agui.TypeReasoningEncryptedValue, agui.TypeRunFinished}
		if !equalTypes(aguitest.Types(evs), want) {
			t.Fatalf("%s: stream %v, want %v", tc.name, aguitest.Types(evs), want)
		}
		if got := evs[0].(*agui.RunStarted).ProtocolVersion; got != tc.version {
			t.Errorf("%s: RUN_STARTED.protocolVersion %q, want %q", tc.name, got, tc.version)
		}
		var stream strings.Builder
		for _, ev := range evs[1:3] {
			js, err := ev.AppendJSON(nil)
			if err != nil {
				t.Fatal(err)
			}
			stream.Write(js)
		}
		if got := strings.Count(stream.String(), `"encryptedValueType":`); got != tc.types {
			t.Errorf("%s: %d encryptedValueType members, want %d: %s", tc.name, got, tc.types, stream.String())
		}
		if got := strings.Count(stream.String(), `"encryptedValue":`); got != 3 {
			t.Errorf("%s: %d encryptedValue members, want 3: %s", tc.name, got, stream.String())
		}
	}
	// Only the 1.2 client speaks a minor newer than ours.
	if got := strings.Count(logs.String(), "newer protocol minor; serving 1.1"); got != 1 {
		t.Errorf("%d newer-minor warnings, want 1 (for the 1.2 client):\n%s", got, logs.String())
	}
}

// TestRunStatesServedVersion: the runner behind every transport states
// [agui.ServedVersion] of its input's protocolVersion.
func TestRunStatesServedVersion(t *testing.T) {
	for client, want := range map[string]string{"1.1": "1.1", "1.0": "1.0", "": "1.0"} {
		in := agui.NewInput("t", "r")
		in.ProtocolVersion = client
		for ev, err := range core.Run(t.Context(), sayAgent("hi"), in) {
			if err != nil {
				t.Fatal(err)
			}
			if rs, ok := ev.(*agui.RunStarted); ok && rs.ProtocolVersion != want {
				t.Errorf("input version %q: RUN_STARTED.protocolVersion %q, want %q", client, rs.ProtocolVersion, want)
			}
		}
	}
}
