package anthropic

import (
	"slices"
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
)

var weatherSpec = loop.ToolSpec{Name: "get_weather", Description: "Weather", Schema: []byte(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}`)}

func TestSettingsMapping(t *testing.T) {
	temp, parallel := 0.3, false
	cases := []struct {
		name  string
		s     loop.ModelSettings
		tools []loop.ToolSpec
		check func(b map[string]any) bool
	}{
		{"limits", loop.ModelSettings{Temperature: &temp, MaxOutputTokens: 200, StopSequences: []string{"END"}}, nil,
			func(b map[string]any) bool {
				_, hasTemp := b["temperature"] // ignored: the API no longer takes it
				return b["max_tokens"] == float64(200) && path(b, "stop_sequences", 0) == "END" && !hasTemp
			}},
		{"required", loop.ModelSettings{ToolChoice: loop.ToolChoice{Mode: loop.ToolChoiceRequired}, ParallelToolCalls: &parallel}, []loop.ToolSpec{weatherSpec},
			func(b map[string]any) bool {
				return path(b, "tool_choice", "type") == "any" && path(b, "tool_choice", "disable_parallel_tool_use") == true
			}},
		{"named", loop.ModelSettings{ToolChoice: loop.UseTool("get_weather")}, []loop.ToolSpec{weatherSpec},
			func(b map[string]any) bool {
				return path(b, "tool_choice", "type") == "tool" && path(b, "tool_choice", "name") == "get_weather" && path(b, "tool_choice", "disable_parallel_tool_use") == nil
			}},
		{"none", loop.ModelSettings{ToolChoice: loop.ToolChoice{Mode: loop.ToolChoiceNone}}, []loop.ToolSpec{weatherSpec},
			func(b map[string]any) bool { return path(b, "tool_choice", "type") == "none" }},
		{"no parallel alone", loop.ModelSettings{ParallelToolCalls: &parallel}, []loop.ToolSpec{weatherSpec},
			func(b map[string]any) bool {
				return path(b, "tool_choice", "type") == "auto" && path(b, "tool_choice", "disable_parallel_tool_use") == true
			}},
		{"tool settings need tools", loop.ModelSettings{ToolChoice: loop.ToolChoice{Mode: loop.ToolChoiceNone}}, nil,
			func(b map[string]any) bool { _, ok := b["tool_choice"]; return !ok }},
		{"tool schema", loop.ModelSettings{}, []loop.ToolSpec{weatherSpec},
			func(b map[string]any) bool {
				s := path(b, "tools", 0, "input_schema")
				return path(b, "tools", 0, "name") == "get_weather" && path(b, "tools", 0, "description") == "Weather" &&
					path(s, "type") == "object" && path(s, "properties", "city", "type") == "string" &&
					path(s, "required", 0) == "city" && path(s, "additionalProperties") == false
			}},
	}
	for _, c := range cases {
		s := newServer(t, play(t, "text.sse"))
		if _, err := collect(t, newProvider(t, s), loop.ModelRequest{Messages: []agui.Message{loop.UserText("x")}, Tools: c.tools, Settings: c.s}); err != nil {
			t.Fatal(err)
		}
		if body := s.requests()[0]; !c.check(body) {
			t.Errorf("%s: body %v", c.name, body)
		}
	}
}

func TestSettingsRefusedWithThinking(t *testing.T) {
	s := newServer(t)
	p := newProvider(t, s, WithThinking(2048))
	for _, st := range []loop.ModelSettings{
		{ToolChoice: loop.ToolChoice{Mode: loop.ToolChoiceRequired}},
		{ToolChoice: loop.UseTool("get_weather")},
		{MaxOutputTokens: 1000}, // not above the budget
	} {
		if _, err := collect(t, p, loop.ModelRequest{Tools: []loop.ToolSpec{weatherSpec}, Settings: st}); err == nil {
			t.Errorf("%+v accepted", st)
		}
	}
	if n := len(s.requests()); n != 0 {
		t.Fatalf("%d requests sent", n)
	}
}

// System and developer messages join the system prompt; tool results of a
// turn travel in one user turn; empty text is not sent.
func TestMessagesMapping(t *testing.T) {
	s := newServer(t, play(t, "text.sse"))
	msgs := []agui.Message{
		&agui.SystemMessage{ID: "s", Content: "Be terse."},
		&agui.DeveloperMessage{ID: "d", Content: "Use metric."},
		loop.UserText("Weather and time?"),
		&agui.AssistantMessage{ID: "a", ToolCalls: []agui.ToolCall{
			{ID: "t1", Function: agui.FunctionCall{Name: "get_weather", Arguments: `{"city":"Oslo"}`}},
			{ID: "t2", Function: agui.FunctionCall{Name: "get_time", Arguments: `{"zone":`}},
			{ID: "t3", Function: agui.FunctionCall{Name: "get_time", Arguments: `["not an object"]`}},
		}},
		&agui.ToolMessage{ID: "r1", ToolCallID: "t1", Content: agui.TextContent("sunny")},
		&agui.ToolMessage{ID: "r2", ToolCallID: "t2", Content: agui.TextContent("invalid arguments"), Error: "validation"},
		&agui.ToolMessage{ID: "r3", ToolCallID: "t3", Content: agui.TextContent("invalid arguments"), Error: "validation"},
		&agui.ReasoningMessage{ID: "r", Content: "unsigned reasoning is not sent"},
		&agui.UserMessage{ID: "u2", Content: agui.TextContent("")},
	}
	if _, err := collect(t, newProvider(t, s), loop.ModelRequest{Instructions: "You help.", Messages: msgs}); err != nil {
		t.Fatal(err)
	}
	b := s.requests()[0]
	sys := []string{}
	for i := range 3 {
		sys = append(sys, path(b, "system", i, "text").(string))
	}
	if strings.Join(sys, "|") != "You help.|Be terse.|Use metric." {
		t.Fatalf("system %v", sys)
	}
	m := path(b, "messages").([]any)
	if len(m) != 3 {
		t.Fatalf("messages %v", m)
	}
	for _, i := range []int{1, 2} {
		if in, ok := path(m, 1, "content", i, "input").(map[string]any); !ok || len(in) != 0 {
			t.Fatalf("invalid arguments must go as {}: %v", path(m, 1, "content", i))
		}
	}
	if path(m, 1, "content", 0, "input", "city") != "Oslo" {
		t.Fatalf("arguments %v", path(m, 1, "content", 0))
	}
	if path(m, 2, "content", 0, "tool_use_id") != "t1" || path(m, 2, "content", 1, "tool_use_id") != "t2" || path(m, 2, "content", 1, "is_error") != true {
		t.Fatalf("results %v", path(m, 2))
	}
}

func TestPromptCaching(t *testing.T) {
	s := newServer(t, play(t, "text.sse"), play(t, "text.sse"))
	if _, err := collect(t, newProvider(t, s, WithPromptCaching()), loop.ModelRequest{Messages: []agui.Message{loop.UserText("x")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := collect(t, newProvider(t, s), loop.ModelRequest{Messages: []agui.Message{loop.UserText("x")}}); err != nil {
		t.Fatal(err)
	}
	if path(s.requests()[0], "cache_control", "type") != "ephemeral" || s.requests()[1]["cache_control"] != nil {
		t.Fatalf("cache_control %v / %v", s.requests()[0]["cache_control"], s.requests()[1]["cache_control"])
	}
}

// A reasoning message goes back by its encryptedValueType (AG-UI 1.1), or
// by its value's form when a 1.0 client dropped the type; a value another
// provider typed is not sent.
func TestThinkingBlocksByType(t *testing.T) {
	const sig, data = "EqQBCgIYAhIM", "EmwKAhgBEgy3"
	for _, tc := range []struct {
		name      string
		reasoning []agui.Message
		want      []string // "thinking:<signature>" or "redacted:<data>"
	}{
		{"1.1 client", []agui.Message{
			&agui.ReasoningMessage{ID: "r1", Content: "hm", EncryptedValue: sig, EncryptedValueType: "anthropic.thinking_signature"},
			&agui.ReasoningMessage{ID: "r2", EncryptedValue: redactedPrefix + data, EncryptedValueType: "anthropic.redacted_thinking"},
		}, []string{"thinking:" + sig, "redacted:" + data}},
		{"1.0 client", []agui.Message{
			&agui.ReasoningMessage{ID: "r1", Content: "hm", EncryptedValue: sig},
			&agui.ReasoningMessage{ID: "r2", EncryptedValue: redactedPrefix + data},
		}, []string{"thinking:" + sig, "redacted:" + data}},
		{"another provider's value", []agui.Message{
			&agui.ReasoningMessage{ID: "r1", Content: "hm", EncryptedValue: "gAAAA", EncryptedValueType: "openai.encrypted_content"},
			&agui.ReasoningMessage{ID: "r2", Content: "hm", EncryptedValue: sig, EncryptedValueType: "anthropic.thinking_signature"},
		}, []string{"thinking:" + sig}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer(t, play(t, "text.sse"))
			msgs := append([]agui.Message{loop.UserText("x")}, tc.reasoning...)
			msgs = append(msgs, &agui.AssistantMessage{ID: "a", Content: "done"}, loop.UserText("y"))
			if _, err := collect(t, newProvider(t, s, WithThinking(2048)), loop.ModelRequest{Messages: msgs}); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, b := range path(s.requests()[0], "messages", 1, "content").([]any) {
				switch path(b, "type") {
				case "thinking":
					got = append(got, "thinking:"+path(b, "signature").(string))
				case "redacted_thinking":
					got = append(got, "redacted:"+path(b, "data").(string))
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("thinking blocks %q, want %q", got, tc.want)
			}
		})
	}
}
