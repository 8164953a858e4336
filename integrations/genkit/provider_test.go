package genkit

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/loop"
	"github.com/firebase/genkit/go/ai"
)

func newLoop(t *testing.T, m ai.Model, opts ...loop.Option) *loop.Agent {
	t.Helper()
	p, err := NewProvider(m)
	if err != nil {
		t.Fatal(err)
	}
	a, err := loop.New(p, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// A Genkit model drives the loop: reasoning and text stream from its
// chunks, the tool request (with the model's ref as the call id) runs as
// a loop tool, and the second request carries its result.
func TestProviderDrivesTheLoop(t *testing.T) {
	g := newGenkit(t)
	m := &scriptedModel{turns: []modelTurn{
		{
			chunks: []*ai.Part{ai.NewReasoningPart("Need weather.", nil), ai.NewTextPart("Checking.")},
			parts: []*ai.Part{ai.NewTextPart("Checking."),
				ai.NewToolRequestPart(&ai.ToolRequest{Name: "weather", Ref: "ref-1", Input: map[string]any{"city": "Oslo"}})},
			usage: &ai.GenerationUsage{InputTokens: 7, OutputTokens: 2, ThoughtsTokens: 1},
		},
		{parts: []*ai.Part{ai.NewTextPart("Sunny.")}, usage: &ai.GenerationUsage{InputTokens: 9, OutputTokens: 1}},
	}}
	weather, err := loop.NewTool("weather", "Current weather", func(ctx context.Context, in city) (string, error) {
		return "sunny in " + in.City, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	temp := 0.3
	a := newLoop(t, m.define(g, "test/provider"), loop.WithTools(weather), loop.WithInstructions("Be brief."),
		loop.WithModelSettings(loop.ModelSettings{Temperature: &temp, MaxOutputTokens: 50}))
	var reasoning strings.Builder
	res, err := a.Execute(t.Context(), loop.Input{
		Messages: []agui.Message{loop.UserText("Weather in Oslo?")},
		OnEvent: func(ev agui.Event) error {
			if r, ok := ev.(*agui.ReasoningMessageContent); ok {
				reasoning.WriteString(r.Delta)
			}
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.FinishReason != loop.FinishStop || res.Usage.InputTokens != 16 || res.Usage.ReasoningTokens != 1 || reasoning.String() != "Need weather." {
		t.Fatalf("finish %v usage %+v reasoning %q", res.FinishReason, res.Usage, reasoning.String())
	}
	var answer string
	for _, msg := range res.Messages {
		if am, ok := msg.(*agui.AssistantMessage); ok {
			answer += am.Content
		}
	}
	if answer != "Checking.Sunny." {
		t.Fatalf("answer %q", answer)
	}
	reqs := m.requests()
	first := reqs[0]
	cfg, ok := first.Config.(*ai.GenerationCommonConfig)
	if !ok || cfg.Temperature != 0.3 || cfg.MaxOutputTokens != 50 || len(first.Tools) != 1 || first.Messages[0].Role != ai.RoleSystem {
		t.Fatalf("first request %+v config %+v", first, first.Config)
	}
	last := reqs[1].Messages[len(reqs[1].Messages)-1]
	if last.Role != ai.RoleTool || last.Content[0].ToolResponse.Ref != "ref-1" || last.Content[0].ToolResponse.Name != "weather" {
		t.Fatalf("second request's last message %+v", last.Content[0])
	}
}

// The model's error and panic fail the run with PROVIDER_ERROR, the cause
// in the log; the process lives.
func TestProviderErrorAndPanicAreCoded(t *testing.T) {
	for name, turn := range map[string]modelTurn{
		"error": {err: errors.New("backend said no to key k-9")},
		"panic": {chunks: []*ai.Part{ai.NewTextPart("Hel")}, panic: "backend said no to key k-9"},
	} {
		t.Run(name, func(t *testing.T) {
			g := newGenkit(t)
			m := &scriptedModel{turns: []modelTurn{turn}}
			var log bytes.Buffer
			logger := slog.New(slog.NewTextHandler(&log, nil))
			a := newLoop(t, m.define(g, "test/"+name), loop.WithLogger(logger))
			evs := runAgent(t, t.Context(), a, userInput("run-1", "Hi"), core.WithLogger(logger))
			re, ok := evs[len(evs)-1].(*agui.RunError)
			if !ok || re.Code != string(loop.CodeProvider) || strings.Contains(re.Message, "k-9") {
				t.Fatalf("last event %#v", evs[len(evs)-1])
			}
			if !strings.Contains(log.String(), "backend said no to key k-9") {
				t.Fatalf("log lacks the cause: %s", log.String())
			}
		})
	}
}

// Cancelling mid-stream reaches the model and ends with CANCELLED.
func TestProviderCancelMidStream(t *testing.T) {
	g := newGenkit(t)
	m := &scriptedModel{turns: []modelTurn{{chunks: []*ai.Part{ai.NewTextPart("Hel")}, block: true}}}
	a := newLoop(t, m.define(g, "test/blocking"))
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var last agui.Event
	for ev, err := range core.Run(ctx, a, userInput("run-1", "Hi")) {
		if err != nil {
			t.Fatal(err)
		}
		if c, ok := ev.(*agui.TextMessageContent); ok && c.Delta == "Hel" {
			cancel()
		}
		last = ev
	}
	if re, ok := last.(*agui.RunError); !ok || re.Code != string(agui.CodeCancelled) {
		t.Fatalf("last event %#v", last)
	}
}

// A length finish ends the run with FinishLength; a named tool choice
// offers only that tool, as required.
func TestProviderFinishAndToolChoice(t *testing.T) {
	g := newGenkit(t)
	m := &scriptedModel{turns: []modelTurn{{parts: []*ai.Part{ai.NewTextPart("Trunc")}, finish: ai.FinishReasonLength}}}
	a := newLoop(t, m.define(g, "test/length"))
	res, err := a.Execute(t.Context(), loop.Input{Messages: []agui.Message{loop.UserText("Hi")}})
	if err != nil {
		t.Fatal(err)
	}
	if res.FinishReason != loop.FinishLength {
		t.Fatalf("finish %v", res.FinishReason)
	}
	req, err := request(loop.ModelRequest{
		Tools: []loop.ToolSpec{
			{Name: "a", Schema: []byte(`{"type":"object"}`)},
			{Name: "b", Schema: []byte(`{"type":"object"}`)},
		},
		Settings: loop.ModelSettings{ToolChoice: loop.UseTool("b")},
		Output:   &loop.OutputSpec{Schema: []byte(`{"type":"object"}`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(req.Tools) != 1 || req.Tools[0].Name != "b" || req.ToolChoice != ai.ToolChoiceRequired || req.Output.Format != "json" {
		t.Fatalf("request %+v", req)
	}
	if _, err := NewProvider(nil); err == nil {
		t.Fatal("NewProvider(nil) succeeded")
	}
}
