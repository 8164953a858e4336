package eino

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
)

// collect runs one turn of p and returns its deltas and error.
func collect(t *testing.T, ctx context.Context, p loop.Provider, req loop.ModelRequest) ([]loop.Delta, error) {
	t.Helper()
	var out []loop.Delta
	for d, err := range p.Stream(ctx, req) {
		if err != nil {
			return out, err
		}
		out = append(out, d)
	}
	return out, nil
}

func TestProviderStreamsEveryKindOfDelta(t *testing.T) {
	m := NewFakeModel(Turn{Chunks: []*schema.Message{
		{Role: schema.Assistant, ReasoningContent: "The user "},
		{Role: schema.Assistant, ReasoningContent: "wants weather."},
		{Role: schema.Assistant, Content: "Checking"},
		{Role: schema.Assistant, ToolCalls: []schema.ToolCall{{Index: new(0), ID: "c1", Function: schema.FunctionCall{Name: "get_weather", Arguments: `{"ci`}}}},
		{Role: schema.Assistant, ToolCalls: []schema.ToolCall{{Index: new(0), Function: schema.FunctionCall{Arguments: `ty":"Oslo"}`}}}},
		{Role: schema.Assistant, ResponseMeta: &schema.ResponseMeta{FinishReason: "length", Usage: &schema.TokenUsage{PromptTokens: 3, CompletionTokens: 1}}},
		{Role: schema.Assistant, ResponseMeta: &schema.ResponseMeta{Usage: &schema.TokenUsage{PromptTokens: 10, CompletionTokens: 7,
			PromptTokenDetails: schema.PromptTokenDetails{CachedTokens: 4}, CompletionTokensDetails: schema.CompletionTokensDetails{ReasoningTokens: 2}}}},
	}})
	p, err := NewProvider(m)
	if err != nil {
		t.Fatal(err)
	}
	temp := 0.5
	ds, err := collect(t, t.Context(), p, loop.ModelRequest{
		Instructions: "Be brief.",
		Messages:     []agui.Message{loop.UserText("Weather in Oslo?")},
		Tools:        []loop.ToolSpec{{Name: "get_weather", Description: "weather", Schema: []byte(`{"type":"object","properties":{"city":{"type":"string"}}}`)}},
		Settings:     loop.ModelSettings{Temperature: &temp, MaxOutputTokens: 64, StopSequences: []string{"END"}, ToolChoice: loop.UseTool("get_weather")},
	})
	if err != nil {
		t.Fatal(err)
	}
	var reasoning, text, args strings.Builder
	var finish loop.FinishReason
	var usage []loop.Usage
	for _, d := range ds {
		reasoning.WriteString(d.Reasoning)
		text.WriteString(d.Text)
		if d.ToolCall != nil {
			if d.ToolCall.Index != 0 {
				t.Fatalf("tool call index %d", d.ToolCall.Index)
			}
			args.WriteString(d.ToolCall.Args)
		}
		if d.Finish != "" {
			finish = d.Finish
		}
		if d.Usage != nil {
			usage = append(usage, *d.Usage)
		}
	}
	if reasoning.String() != "The user wants weather." || text.String() != "Checking" || args.String() != `{"city":"Oslo"}` {
		t.Fatalf("reasoning %q text %q args %q", reasoning.String(), text.String(), args.String())
	}
	if ds[3].ToolCall.ID != "c1" || ds[3].ToolCall.Name != "get_weather" {
		t.Fatalf("first fragment %+v", ds[3].ToolCall)
	}
	if finish != loop.FinishLength {
		t.Fatalf("finish %q", finish)
	}
	want := loop.Usage{InputTokens: 10, OutputTokens: 7, CachedInputTokens: 4, ReasoningTokens: 2}
	if len(usage) != 1 || usage[0] != want {
		t.Fatalf("usage %+v, want once the last %+v", usage, want)
	}
	in := m.Inputs()[0]
	if len(in) != 2 || in[0].Role != schema.System || in[0].Content != "Be brief." || in[1].Role != schema.User || in[1].Content != "Weather in Oslo?" {
		t.Fatalf("model input %v", in)
	}
	tools := m.Tools()[0]
	if len(tools) != 1 || tools[0].Name != "get_weather" {
		t.Fatalf("tools %v", tools)
	}
	js, err := tools[0].ToJSONSchema()
	if err != nil || js.Type != "object" {
		t.Fatalf("schema %v %v", js, err)
	}
	o := m.Options()[0]
	if *o.Temperature != 0.5 || *o.MaxTokens != 64 || o.Stop[0] != "END" || *o.ToolChoice != schema.ToolChoiceForced || o.AllowedToolNames[0] != "get_weather" {
		t.Fatalf("options %+v", o)
	}
}

// Models that send whole calls without an Index get them numbered in
// order of arrival.
func TestProviderNumbersCallsWithoutIndex(t *testing.T) {
	m := NewFakeModel(Turn{Chunks: []*schema.Message{
		{Role: schema.Assistant, ToolCalls: []schema.ToolCall{
			{ID: "a", Function: schema.FunctionCall{Name: "x", Arguments: "{}"}},
			{ID: "b", Function: schema.FunctionCall{Name: "y", Arguments: "{}"}},
		}},
		{Role: schema.Assistant, ToolCalls: []schema.ToolCall{{ID: "c", Function: schema.FunctionCall{Name: "z", Arguments: "{}"}}}},
	}})
	p, _ := NewProvider(m)
	ds, err := collect(t, t.Context(), p, loop.ModelRequest{Messages: []agui.Message{loop.UserText("go")}})
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, d := range ds {
		got = append(got, d.ToolCall.Index)
	}
	if len(got) != 3 || got[0] != 0 || got[1] != 1 || got[2] != 2 {
		t.Fatalf("indexes %v", got)
	}
}

func TestProviderErrors(t *testing.T) {
	boom := errors.New("upstream 500")
	for name, turn := range map[string]Turn{
		"before the stream": {Err: boom},
		"mid-stream":        {Chunks: TextTurn("partial").Chunks, Err: boom},
	} {
		t.Run(name, func(t *testing.T) {
			p, _ := NewProvider(NewFakeModel(turn))
			_, err := collect(t, t.Context(), p, loop.ModelRequest{Messages: []agui.Message{loop.UserText("hi")}})
			if !errors.Is(err, boom) {
				t.Fatalf("err %v", err)
			}
		})
	}
	t.Run("unsupported content", func(t *testing.T) {
		p, _ := NewProvider(NewFakeModel())
		msg := &agui.UserMessage{ID: "m1", Content: agui.PartsContent(agui.ContentPart{Type: agui.PartImage, Source: &agui.PartSource{Type: agui.SourceFile, Value: "file-1"}})}
		_, err := collect(t, t.Context(), p, loop.ModelRequest{Messages: []agui.Message{msg}})
		if agui.CodeOf(err) != loop.CodeUnsupportedContent {
			t.Fatalf("err %v", err)
		}
	})
	if _, err := NewProvider(nil); err == nil {
		t.Fatal("nil model accepted")
	}
}

// A run cancelled mid-answer ends with the context's error, not a
// provider failure, and the model's goroutine ends (goleak).
func TestProviderCancelMidStream(t *testing.T) {
	sent := make(chan struct{})
	p, _ := NewProvider(NewFakeModel(Turn{Chunks: TextTurn("Hel").Chunks, Hang: true, Sent: sent}))
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var text string
	var err error
	for d, e := range p.Stream(ctx, loop.ModelRequest{Messages: []agui.Message{loop.UserText("hi")}}) {
		if e != nil {
			err = e
			break
		}
		text += d.Text
		<-sent
		cancel()
	}
	if text != "Hel" || !errors.Is(err, context.Canceled) {
		t.Fatalf("text %q err %v", text, err)
	}
}

// The provider drives a whole loop run: a tool call, its result sent back
// to the model with its call id, then the answer.
func TestProviderDrivesLoop(t *testing.T) {
	m := NewFakeModel(CallTurn("call_1", "get_weather", `{"city":"Oslo"}`), TextTurn("Sunny ", "in Oslo."))
	p, _ := NewProvider(m)
	weather, err := loop.NewTool("get_weather", "Current weather", func(ctx context.Context, in struct {
		City string `json:"city"`
	}) (string, error) {
		return "sunny in " + in.City, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	a, err := loop.New(p, loop.WithTools(weather))
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Execute(t.Context(), loop.Input{Messages: []agui.Message{loop.UserText("Weather?")}})
	if err != nil {
		t.Fatal(err)
	}
	last := res.Messages[len(res.Messages)-1].(*agui.AssistantMessage)
	if last.Content != "Sunny in Oslo." {
		t.Fatalf("answer %q", last.Content)
	}
	second := m.Inputs()[1]
	tool := second[len(second)-1]
	if tool.Role != schema.Tool || tool.ToolCallID != "call_1" || tool.Content != "sunny in Oslo" {
		t.Fatalf("tool message %+v", tool)
	}
	if calls := second[len(second)-2].ToolCalls; len(calls) != 1 || calls[0].ID != "call_1" {
		t.Fatalf("assistant calls %+v", calls)
	}
}

// The loop reports a failing eino model as PROVIDER_ERROR, with the
// model's error as cause.
func TestProviderFailureIsProviderError(t *testing.T) {
	boom := errors.New("upstream 500")
	p, _ := NewProvider(NewFakeModel(Turn{Err: boom}))
	a, err := loop.New(p)
	if err != nil {
		t.Fatal(err)
	}
	_, err = a.Execute(t.Context(), loop.Input{Messages: []agui.Message{loop.UserText("hi")}})
	if agui.CodeOf(err) != loop.CodeProvider || !errors.Is(err, boom) {
		t.Fatalf("err %v (code %s)", err, agui.CodeOf(err))
	}
}

// Options given with WithModelOptions go with every turn, after the
// settings', so they win.
func TestProviderModelOptions(t *testing.T) {
	m := NewFakeModel(TextTurn("a"))
	p, _ := NewProvider(m, WithModelOptions(model.WithModel("big"), model.WithTemperature(0.1)))
	temp := 0.9
	if _, err := collect(t, t.Context(), p, loop.ModelRequest{Messages: []agui.Message{loop.UserText("hi")}, Settings: loop.ModelSettings{Temperature: &temp}}); err != nil {
		t.Fatal(err)
	}
	o := m.Options()[0]
	if *o.Model != "big" || *o.Temperature != 0.1 {
		t.Fatalf("options %+v", o)
	}
}
