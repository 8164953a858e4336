package langchaingo

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/loop"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/fake"
)

// scripted is a langchaingo model implemented in the test: each call
// plays the next of its turns, streaming its chunks the way langchaingo's
// OpenAI backend does (text to StreamingFunc, reasoning to
// StreamingReasoningFunc, tool call fragments as JSON to StreamingFunc),
// then returns the turn's final response. It records each call's
// messages and options.
type scripted struct {
	mu    sync.Mutex
	turns []scriptedTurn
	calls []scriptedCall
}

type scriptedTurn struct {
	reasoning []string
	chunks    []string
	resp      *llms.ContentChoice
	err       error
	// block waits for the context's end after the chunks.
	block bool
	panic any
}

type scriptedCall struct {
	msgs []llms.MessageContent
	opts llms.CallOptions
}

func (m *scripted) GenerateContent(ctx context.Context, msgs []llms.MessageContent, options ...llms.CallOption) (*llms.ContentResponse, error) {
	var o llms.CallOptions
	for _, opt := range options {
		opt(&o)
	}
	m.mu.Lock()
	t := m.turns[len(m.calls)]
	m.calls = append(m.calls, scriptedCall{msgs: msgs, opts: o})
	m.mu.Unlock()
	for _, r := range t.reasoning {
		if err := o.StreamingReasoningFunc(ctx, []byte(r), nil); err != nil {
			return nil, err
		}
	}
	for _, c := range t.chunks {
		if err := o.StreamingFunc(ctx, []byte(c)); err != nil {
			return nil, err
		}
		if err := o.StreamingReasoningFunc(ctx, nil, []byte(c)); err != nil {
			return nil, err
		}
	}
	if t.panic != nil {
		panic(t.panic)
	}
	if t.block {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	if t.err != nil {
		return nil, t.err
	}
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{t.resp}}, nil
}

func (m *scripted) Call(context.Context, string, ...llms.CallOption) (string, error) {
	return "", errors.New("not used")
}

// run serves agent once over core with input text and returns the
// events, checked by the protocol's verifier.
func run(t *testing.T, ctx context.Context, a core.Agent[core.NoState], text string, opts ...core.RunOption) []agui.Event {
	t.Helper()
	in := agui.NewInput("thread-1", "run-1")
	in.Messages = []agui.Message{loop.UserText(text)}
	v := agui.NewVerifier()
	var evs []agui.Event
	for ev, err := range core.Run(ctx, a, in, opts...) {
		if err != nil {
			t.Fatal(err)
		}
		if err := v.Observe(ev); err != nil {
			t.Fatalf("verifier: %v (after %v)", err, types(evs))
		}
		evs = append(evs, ev)
	}
	return evs
}

func types(evs []agui.Event) []agui.EventType {
	out := make([]agui.EventType, len(evs))
	for i, ev := range evs {
		out[i] = ev.Type()
	}
	return out
}

func text(evs []agui.Event) string {
	var b strings.Builder
	for _, ev := range evs {
		if c, ok := ev.(*agui.TextMessageContent); ok {
			b.WriteString(c.Delta)
		}
	}
	return b.String()
}

func newAgent(t *testing.T, m llms.Model, opts ...loop.Option) *loop.Agent {
	t.Helper()
	p, err := New(m)
	if err != nil {
		t.Fatal(err)
	}
	a, err := loop.New(p, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// langchaingo's own fake model does not stream: the answer comes from the
// final response.
func TestFakeModelAnswers(t *testing.T) {
	evs := run(t, t.Context(), newAgent(t, fake.NewFakeLLM([]string{"Hello from the fake."})), "Hi")
	if got := text(evs); got != "Hello from the fake." {
		t.Fatalf("text %q", got)
	}
	if last := evs[len(evs)-1]; last.Type() != agui.TypeRunFinished {
		t.Fatalf("last event %v", last.Type())
	}
}

// Reasoning and text stream as they come; the tool call fragments the
// backend passes to StreamingFunc never reach the text; the call comes
// from the final response, runs, and the second turn carries its result.
func TestStreamsReasoningTextAndToolCalls(t *testing.T) {
	m := &scripted{turns: []scriptedTurn{
		{
			reasoning: []string{"The user wants ", "weather."},
			chunks:    []string{"Let me ", "check. ", `[{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"ci"}}]`},
			resp: &llms.ContentChoice{
				Content:    "Let me check. ",
				StopReason: "tool_calls",
				ToolCalls: []llms.ToolCall{{ID: "call_1", Type: "function",
					FunctionCall: &llms.FunctionCall{Name: "get_weather", Arguments: `{"city":"Oslo"}`}}},
				GenerationInfo: map[string]any{"PromptTokens": 10, "CompletionTokens": 5, "ReasoningTokens": 3},
			},
		},
		{
			chunks: []string{"Sunny, ", "21°C."},
			resp: &llms.ContentChoice{Content: "Sunny, 21°C.", StopReason: "stop",
				GenerationInfo: map[string]any{"InputTokens": int64(20), "OutputTokens": int64(4)}},
		},
	}}
	weather, err := loop.NewTool("get_weather", "Current weather", func(ctx context.Context, in struct {
		City string `json:"city"`
	}) (string, error) {
		return "sunny in " + in.City, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	p, err := New(m)
	if err != nil {
		t.Fatal(err)
	}
	a, err := loop.New(p, loop.WithTools(weather), loop.WithInstructions("Be brief."),
		loop.WithModelSettings(loop.ModelSettings{MaxOutputTokens: 100, StopSequences: []string{"END"}}))
	if err != nil {
		t.Fatal(err)
	}
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
	if res.FinishReason != loop.FinishStop {
		t.Fatalf("finish %v", res.FinishReason)
	}
	if res.Usage.InputTokens != 30 || res.Usage.OutputTokens != 9 || res.Usage.ReasoningTokens != 3 {
		t.Fatalf("usage %+v", res.Usage)
	}
	var answer strings.Builder
	var result string
	for _, msg := range res.Messages {
		switch msg := msg.(type) {
		case *agui.AssistantMessage:
			answer.WriteString(msg.Content)
		case *agui.ToolMessage:
			result = msg.Content.String()
		}
	}
	if reasoning.String() != "The user wants weather." || answer.String() != "Let me check. Sunny, 21°C." {
		t.Fatalf("reasoning %q answer %q", reasoning.String(), answer.String())
	}
	if !strings.Contains(result, "sunny in Oslo") {
		t.Fatalf("tool result %q", result)
	}
	first := m.calls[0]
	if len(first.opts.Tools) != 1 || first.opts.Tools[0].Function.Name != "get_weather" || first.opts.MaxTokens != 100 || first.opts.StopWords[0] != "END" {
		t.Fatalf("first call options %+v", first.opts)
	}
	if first.msgs[0].Role != llms.ChatMessageTypeSystem {
		t.Fatalf("first message %+v", first.msgs[0])
	}
	second := m.calls[1].msgs
	last := second[len(second)-1]
	resp, ok := last.Parts[0].(llms.ToolCallResponse)
	if last.Role != llms.ChatMessageTypeTool || !ok || resp.ToolCallID != "call_1" {
		t.Fatalf("second call's last message %+v", last)
	}
	call, ok := second[len(second)-2].Parts[1].(llms.ToolCall)
	if !ok || call.ID != "call_1" || call.FunctionCall.Arguments != `{"city":"Oslo"}` {
		t.Fatalf("second call's assistant message %+v", second[len(second)-2])
	}
}

// A JSON-looking text chunk is held back, not lost: it comes from the
// final response.
func TestJSONTextIsNotLost(t *testing.T) {
	m := &scripted{turns: []scriptedTurn{{
		chunks: []string{`{"a":1}`, " done"},
		resp:   &llms.ContentChoice{Content: `{"a":1} done`},
	}}}
	evs := run(t, t.Context(), newAgent(t, m), "Hi")
	if got := text(evs); got != `{"a":1} done` {
		t.Fatalf("text %q", got)
	}
}

// A backend's error ends the run with a coded RUN_ERROR whose message
// hides the cause, and the full error goes to the log.
func TestBackendErrorIsCoded(t *testing.T) {
	m := &scripted{turns: []scriptedTurn{{err: &llms.Error{Code: llms.ErrCodeRateLimit, Message: "slow down, key sk-secret", Provider: "openai"}}}}
	var log bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&log, nil))
	evs := run(t, t.Context(), newAgent(t, m, loop.WithLogger(logger)), "Hi", core.WithLogger(logger))
	re, ok := evs[len(evs)-1].(*agui.RunError)
	if !ok || re.Code != string(loop.CodeProvider) || strings.Contains(re.Message, "sk-secret") {
		t.Fatalf("last event %#v", evs[len(evs)-1])
	}
	if !strings.Contains(log.String(), "slow down, key sk-secret") {
		t.Fatalf("log lacks the cause: %s", log.String())
	}
	var ae *APIError
	if !errors.As(wrap(m.turns[0].err), &ae) || !ae.Retryable() {
		t.Fatal("a rate limit is not a retryable *APIError")
	}
}

// A model that panics mid-stream fails the run with a coded RUN_ERROR;
// the process lives and the stack is in the log.
func TestModelPanicIsCoded(t *testing.T) {
	m := &scripted{turns: []scriptedTurn{{chunks: []string{"Hel"}, panic: "boom"}}}
	var log bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&log, nil))
	evs := run(t, t.Context(), newAgent(t, m, loop.WithLogger(logger)), "Hi", core.WithLogger(logger))
	re, ok := evs[len(evs)-1].(*agui.RunError)
	if !ok || re.Code != string(loop.CodeProvider) {
		t.Fatalf("last event %#v", evs[len(evs)-1])
	}
	if !strings.Contains(log.String(), "the model panicked: boom") {
		t.Fatalf("log lacks the panic: %s", log.String())
	}
}

// Cancelling the run mid-stream reaches the backend's context and ends
// the run with RUN_ERROR CANCELLED.
func TestCancelMidStream(t *testing.T) {
	m := &scripted{turns: []scriptedTurn{{chunks: []string{"Hel"}, block: true}}}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	a := newAgent(t, m)
	in := agui.NewInput("thread-1", "run-1")
	in.Messages = []agui.Message{loop.UserText("Hi")}
	v := agui.NewVerifier()
	var last agui.Event
	for ev, err := range core.Run(ctx, a, in) {
		if err != nil {
			t.Fatal(err)
		}
		if err := v.Observe(ev); err != nil {
			t.Fatal(err)
		}
		if c, ok := ev.(*agui.TextMessageContent); ok && c.Delta == "Hel" {
			cancel() // the model is now blocked on its context
		}
		last = ev
	}
	re, ok := last.(*agui.RunError)
	if !ok || re.Code != string(agui.CodeCancelled) {
		t.Fatalf("last event %#v", last)
	}
}

// The loop's settings map to call options; the tool choice names a tool.
func TestCallOptions(t *testing.T) {
	temp := 0.5
	p, err := New(fake.NewFakeLLM([]string{"x"}), WithCallOptions(llms.WithModel("m1")))
	if err != nil {
		t.Fatal(err)
	}
	opts, err := p.callOptions(loop.ModelRequest{
		Tools:    []loop.ToolSpec{{Name: "t", Schema: []byte(`{"type":"object"}`)}},
		Settings: loop.ModelSettings{Temperature: &temp, ToolChoice: loop.UseTool("t")},
		Output:   &loop.OutputSpec{},
	})
	if err != nil {
		t.Fatal(err)
	}
	var o llms.CallOptions
	for _, opt := range opts {
		opt(&o)
	}
	choice, ok := o.ToolChoice.(llms.ToolChoice)
	if o.Model != "m1" || o.Temperature != 0.5 || !o.JSONMode || !ok || choice.Function.Name != "t" {
		t.Fatalf("options %+v", o)
	}
	if _, err := New(nil); err == nil {
		t.Fatal("New(nil) succeeded")
	}
}

func TestFinishAndUsageMapping(t *testing.T) {
	if finishOf("max_tokens") != loop.FinishLength || finishOf("SAFETY") != loop.FinishContentFilter || finishOf("stop") != "" {
		t.Fatal("finish reasons")
	}
	u, ok := usageOf(map[string]any{"PromptTokens": int32(3), "CacheReadInputTokens": 2.0})
	if !ok || u.InputTokens != 3 || u.CachedInputTokens != 2 {
		t.Fatalf("usage %+v", u)
	}
	if _, ok := usageOf(nil); ok {
		t.Fatal("usage from nothing")
	}
}
