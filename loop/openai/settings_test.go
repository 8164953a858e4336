package openai

import (
	"errors"
	"net/http"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
)

var weatherSpec = loop.ToolSpec{Name: "get_weather", Schema: []byte(`{"type":"object","properties":{"city":{"type":"string"}}}`)}

func TestSettingsMapping(t *testing.T) {
	temp, parallel := 0.3, false
	cases := []struct {
		name  string
		s     loop.ModelSettings
		tools []loop.ToolSpec
		check func(body map[string]any) bool
	}{
		{"sampling", loop.ModelSettings{Temperature: &temp, MaxOutputTokens: 200, StopSequences: []string{"END", "STOP"}}, nil,
			func(b map[string]any) bool {
				stop, _ := b["stop"].([]any)
				return b["temperature"] == 0.3 && b["max_completion_tokens"] == float64(200) && len(stop) == 2 && stop[1] == "STOP"
			}},
		{"required", loop.ModelSettings{ToolChoice: loop.ToolChoice{Mode: loop.ToolChoiceRequired}, ParallelToolCalls: &parallel}, []loop.ToolSpec{weatherSpec},
			func(b map[string]any) bool {
				return b["tool_choice"] == "required" && b["parallel_tool_calls"] == false
			}},
		{"none", loop.ModelSettings{ToolChoice: loop.ToolChoice{Mode: loop.ToolChoiceNone}}, []loop.ToolSpec{weatherSpec},
			func(b map[string]any) bool { return b["tool_choice"] == "none" }},
		{"named", loop.ModelSettings{ToolChoice: loop.UseTool("get_weather")}, []loop.ToolSpec{weatherSpec},
			func(b map[string]any) bool {
				c, _ := b["tool_choice"].(map[string]any)
				f, _ := c["function"].(map[string]any)
				return c["type"] == "function" && f["name"] == "get_weather"
			}},
		{"tool settings need tools", loop.ModelSettings{ToolChoice: loop.ToolChoice{Mode: loop.ToolChoiceNone}, ParallelToolCalls: &parallel}, nil,
			func(b map[string]any) bool {
				_, c := b["tool_choice"]
				_, p := b["parallel_tool_calls"]
				return !c && !p
			}},
		{"defaults send nothing", loop.ModelSettings{}, []loop.ToolSpec{weatherSpec},
			func(b map[string]any) bool {
				for _, k := range []string{"temperature", "max_completion_tokens", "stop", "tool_choice", "parallel_tool_calls"} {
					if _, ok := b[k]; ok {
						return false
					}
				}
				return true
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

func TestFinishReasonLength(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte(`data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"Oslo is"},"finish_reason":null}]}` + "\n\n" +
			`data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"length"}]}` + "\n\ndata: [DONE]\n\n"))
	})
	a, err := loop.New(newProvider(t, s), loop.WithModelSettings(loop.ModelSettings{MaxOutputTokens: 2}))
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Execute(t.Context(), loop.Input{Messages: []agui.Message{loop.UserText("x")}})
	if err != nil || res.FinishReason != loop.FinishLength {
		t.Fatalf("finish %s, err %v", res.FinishReason, err)
	}
}

func TestFinishReasonContentFilter(t *testing.T) {
	for _, chunk := range []string{
		`{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"content_filter"}]}`,
		`{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"refusal":"I can't help with that."},"finish_reason":"stop"}]}`,
	} {
		s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			w.Write([]byte("data: " + chunk + "\n\ndata: [DONE]\n\n"))
		})
		a, err := loop.New(newProvider(t, s))
		if err != nil {
			t.Fatal(err)
		}
		res, err := a.Execute(t.Context(), loop.Input{Messages: []agui.Message{loop.UserText("x")}})
		if err != nil || res.FinishReason != loop.FinishContentFilter {
			t.Fatalf("finish %s, err %v", res.FinishReason, err)
		}
	}
}

func TestErrorClassification(t *testing.T) {
	for code, want := range map[int]bool{429: true, 500: true, 503: true, 400: false, 401: false, 404: false} {
		s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(code)
			w.Write([]byte(`{"error":{"message":"nope","type":"x"}}`))
		})
		_, err := collect(t, newProvider(t, s), loop.ModelRequest{})
		var ae *APIError
		if !errors.As(err, &ae) || ae.StatusCode != code || ae.Retryable() != want || loop.IsRetryable(err) != want {
			t.Errorf("%d: err %v", code, err)
		}
	}
}
