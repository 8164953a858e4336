package anthropic

import (
	"context"
	"slices"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
)

func weatherTool(t *testing.T) loop.Tool {
	t.Helper()
	tool, err := loop.NewTool("get_weather", "Current weather for a city", func(ctx context.Context, in struct {
		City string `json:"city"`
	}) (map[string]any, error) {
		return map[string]any{"city": in.City, "tempC": 21}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

// The whole loop offline with extended thinking: turn 1 thinks (a signed
// block and a redacted one) and calls a tool; turn 2 answers. The thinking
// reaches the client as REASONING_* events with its encrypted values, and
// goes back to the API unchanged at the head of the assistant turn, as the
// Messages API requires with tool use.
func TestLoopThinkingRoundTrip(t *testing.T) {
	s := newServer(t, play(t, "thinking.sse"), play(t, "text.sse"))
	a, err := loop.New(newProvider(t, s, WithThinking(2048)), loop.WithTools(weatherTool(t)), loop.WithInstructions("You are a travel assistant."))
	if err != nil {
		t.Fatal(err)
	}
	var types []agui.EventType
	var encrypted, valueTypes []string
	res, err := a.Execute(t.Context(), loop.Input{
		Messages: []agui.Message{loop.UserText("Weather in Oslo?")},
		OnEvent: func(ev agui.Event) error {
			types = append(types, ev.Type())
			if e, ok := ev.(*agui.ReasoningEncryptedValue); ok {
				encrypted = append(encrypted, e.EncryptedValue)
				valueTypes = append(valueTypes, e.EncryptedValueType)
			}
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.FinishReason != loop.FinishStop || len(encrypted) != 2 {
		t.Fatalf("finish %s, encrypted values %q", res.FinishReason, encrypted)
	}
	if types[0] != agui.TypeRunStarted || types[1] != agui.TypeReasoningStart || types[4] != agui.TypeReasoningMessageContent {
		t.Fatalf("events %v", types)
	}
	if !slices.Equal(valueTypes, []string{typeSignature, typeRedacted}) {
		t.Fatalf("encryptedValueType on the events: %q", valueTypes)
	}
	kept := 0
	for _, m := range res.Messages {
		if r, ok := m.(*agui.ReasoningMessage); ok && r.EncryptedValue != "" && r.EncryptedValueType == valueTypes[kept] {
			kept++
		}
	}
	if kept != 2 {
		t.Fatalf("%d reasoning messages kept in %v", kept, res.Messages)
	}
	second := s.requests()[1]
	turn := path(second, "messages", 1)
	if path(turn, "role") != "assistant" {
		t.Fatalf("messages %v", second["messages"])
	}
	if path(turn, "content", 0, "type") != "thinking" ||
		path(turn, "content", 0, "thinking") != "The user wants the weather. I should call the tool." ||
		path(turn, "content", 0, "signature") != "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds" {
		t.Fatalf("thinking block %v", path(turn, "content", 0))
	}
	if path(turn, "content", 1, "type") != "redacted_thinking" || path(turn, "content", 1, "data") != "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP" {
		t.Fatalf("redacted block %v", path(turn, "content", 1))
	}
	if path(turn, "content", 2, "type") != "tool_use" || path(turn, "content", 2, "id") != "toolu_01Wx1ThinkingCall00000" || path(turn, "content", 2, "input", "city") != "Oslo" {
		t.Fatalf("tool_use block %v", path(turn, "content", 2))
	}
	result := path(second, "messages", 2)
	if path(result, "role") != "user" || path(result, "content", 0, "type") != "tool_result" ||
		path(result, "content", 0, "tool_use_id") != "toolu_01Wx1ThinkingCall00000" ||
		path(result, "content", 0, "content", 0, "text") != `{"city":"Oslo","tempC":21}` {
		t.Fatalf("tool result %v", result)
	}
	if n := len(path(second, "messages").([]any)); n != 3 {
		t.Fatalf("%d messages", n)
	}
}

// A turn cut off at max_tokens ends the run with FinishLength, and a
// refusal with FinishContentFilter, on Result and on RUN_FINISHED.
func TestLoopFinishReasons(t *testing.T) {
	for file, want := range map[string]loop.FinishReason{"max_tokens.sse": loop.FinishLength, "refusal.sse": loop.FinishContentFilter} {
		s := newServer(t, play(t, file))
		a, err := loop.New(newProvider(t, s))
		if err != nil {
			t.Fatal(err)
		}
		res, err := a.Execute(t.Context(), loop.Input{Messages: []agui.Message{loop.UserText("x")}})
		if err != nil || res.FinishReason != want {
			t.Fatalf("%s: finish %s, err %v", file, res.FinishReason, err)
		}
	}
}
