package openai

import (
	"context"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
)

// The whole loop offline: turn 1 asks for two tools in parallel, the
// second finishes first; turn 2 answers. The second request carries the
// results in call order with their tool_call_ids (failure modes 1 and 4).
func TestLoopOverRecordedServer(t *testing.T) {
	s := newServer(t, play(t, "tools.sse"), play(t, "text.sse"))
	timeDone := make(chan struct{})
	weather, err := loop.NewTool("get_weather", "Current weather for a city", func(ctx context.Context, in struct {
		City string `json:"city"`
	}) (map[string]any, error) {
		<-timeDone // finish after get_time's result went out
		return map[string]any{"city": in.City, "tempC": 21}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	clock, err := loop.NewTool("get_time", "Current time in a zone", func(ctx context.Context, in struct {
		Zone string `json:"zone"`
	}) (string, error) {
		return "12:00", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	a, err := loop.New(newProvider(t, s), loop.WithTools(weather, clock), loop.WithInstructions("You are a travel assistant."))
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	res, err := a.Execute(t.Context(), loop.Input{
		Messages: []agui.Message{loop.UserText("Weather and time in Oslo?")},
		OnEvent: func(ev agui.Event) error {
			if r, ok := ev.(*agui.ToolCallResult); ok {
				order = append(order, r.ToolCallID)
				if r.ToolCallID == "call_Tm2" {
					close(timeDone)
				}
			}
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.FinishReason != loop.FinishStop || res.Usage.InputTokens != 81+58 {
		t.Fatalf("finish %s usage %+v", res.FinishReason, res.Usage)
	}
	if len(order) != 2 || order[0] != "call_Tm2" {
		t.Fatalf("result events %v, want completion order", order)
	}
	reqs := s.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	if tools := reqs[0]["tools"].([]any); len(tools) != 2 {
		t.Fatalf("tools %v", tools)
	}
	msgs := reqs[1]["messages"].([]any)
	roles := ""
	for _, m := range msgs {
		roles += m.(map[string]any)["role"].(string)[:1]
	}
	if roles != "suatt" {
		t.Fatalf("roles %s", roles)
	}
	calls := msgs[2].(map[string]any)["tool_calls"].([]any)
	if calls[0].(map[string]any)["id"] != "call_Wx1" || calls[1].(map[string]any)["id"] != "call_Tm2" {
		t.Fatalf("calls %v", calls)
	}
	if msgs[3].(map[string]any)["tool_call_id"] != "call_Wx1" || msgs[4].(map[string]any)["tool_call_id"] != "call_Tm2" {
		t.Fatalf("results not in call order: %v", msgs[3:])
	}
	if msgs[3].(map[string]any)["content"] != `{"city":"Oslo","tempC":21}` {
		t.Fatalf("result %v", msgs[3])
	}
}
