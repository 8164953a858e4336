package eino

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"

	"github.com/agui-go/agui/loop"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/eino-contrib/jsonschema"
)

// Provider is an eino chat model as a [loop.Provider]: any
// [model.ToolCallingChatModel] (the eino-ext OpenAI, Ark, Claude, Gemini,
// Ollama, Qwen… models, or your own) drives a loop agent. It is safe for
// concurrent use if the model's Stream and WithTools are, as eino asks of
// them.
type Provider struct {
	model model.ToolCallingChatModel
	opts  []model.Option
}

var _ loop.Provider = (*Provider)(nil)

// ProviderOption configures a [Provider]; options are applied once, by
// [NewProvider].
type ProviderOption func(*Provider) error

// WithModelOptions adds eino model options sent with every turn, after
// those the provider derives from the loop's settings (so these win), such
// as an implementation's own options. Default: none.
func WithModelOptions(opts ...model.Option) ProviderOption {
	return func(p *Provider) error {
		p.opts = append(p.opts, opts...)
		return nil
	}
}

// NewProvider returns m as a loop model provider.
func NewProvider(m model.ToolCallingChatModel, opts ...ProviderOption) (*Provider, error) {
	if m == nil {
		return nil, errors.New("eino: NewProvider: nil model")
	}
	p := &Provider{model: m}
	for _, o := range opts {
		if err := o(p); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// Stream implements [loop.Provider]: it streams one turn of the model with
// the request's tools bound through WithTools. Text, reasoning
// (ReasoningContent), tool call fragments, the finish reason and the last
// usage the stream reports become deltas. The model must honour ctx, as
// eino models do: Stream stops between chunks when ctx is done, but cannot
// interrupt a model blocked inside Recv.
func (p *Provider) Stream(ctx context.Context, req loop.ModelRequest) iter.Seq2[loop.Delta, error] {
	return func(yield func(loop.Delta, error) bool) {
		m, in, opts, err := p.prepare(req)
		if err != nil {
			yield(loop.Delta{}, err)
			return
		}
		sr, err := m.Stream(ctx, in, opts...)
		if err != nil {
			yield(loop.Delta{}, providerError(ctx, err))
			return
		}
		defer sr.Close()
		var (
			calls toolCalls
			usage *schema.TokenUsage
		)
		for {
			chunk, err := sr.Recv()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				yield(loop.Delta{}, providerError(ctx, err))
				return
			}
			if err := ctx.Err(); err != nil {
				yield(loop.Delta{}, err)
				return
			}
			if chunk == nil {
				continue
			}
			if chunk.ResponseMeta != nil && chunk.ResponseMeta.Usage != nil {
				usage = chunk.ResponseMeta.Usage // cumulative in some models: keep the last
			}
			if !forward(chunk, &calls, yield) {
				return
			}
		}
		if usage != nil {
			u := loop.Usage{
				InputTokens:       int64(usage.PromptTokens),
				OutputTokens:      int64(usage.CompletionTokens),
				ReasoningTokens:   int64(usage.CompletionTokensDetails.ReasoningTokens),
				CachedInputTokens: int64(usage.PromptTokenDetails.CachedTokens),
			}
			yield(loop.Delta{Usage: &u}, nil)
		}
	}
}

// providerError returns ctx's error when the model failed because ctx
// ended (so the loop reports a cancellation, not a provider failure), and
// err otherwise; the loop codes it loop.CodeProvider.
func providerError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return fmt.Errorf("eino: model: %w", err)
}

// forward yields the deltas of one chunk; false means the consumer stopped.
func forward(m *schema.Message, calls *toolCalls, yield func(loop.Delta, error) bool) bool {
	if m.ReasoningContent != "" && !yield(loop.Delta{Reasoning: m.ReasoningContent}, nil) {
		return false
	}
	if m.Content != "" && !yield(loop.Delta{Text: m.Content}, nil) {
		return false
	}
	for i, tc := range m.ToolCalls {
		d := &loop.ToolCallDelta{Index: calls.index(i, tc), ID: tc.ID, Name: tc.Function.Name, Args: tc.Function.Arguments}
		if !yield(loop.Delta{ToolCall: d}, nil) {
			return false
		}
	}
	if m.ResponseMeta != nil {
		if f := finishOf(m.ResponseMeta.FinishReason); f != "" && !yield(loop.Delta{Finish: f}, nil) {
			return false
		}
	}
	return true
}

// toolCalls numbers a turn's tool calls. Streaming models put an Index on
// each fragment; a model that sends whole calls without one gets them
// numbered in order of arrival, a fragment with a new id starting a call.
type toolCalls struct {
	next   int
	lastID string
	last   int
}

func (c *toolCalls) index(pos int, tc schema.ToolCall) int {
	if tc.Index != nil {
		c.next = max(c.next, *tc.Index+1)
		return *tc.Index
	}
	if tc.ID != "" && tc.ID != c.lastID || c.next == 0 {
		c.lastID, c.last = tc.ID, c.next
		c.next++
	}
	return c.last
}

// finishOf maps a finish reason to the loop's reason for a turn ended
// early; a normal end maps to "".
func finishOf(r string) loop.FinishReason {
	switch r {
	case "length", "max_tokens":
		return loop.FinishLength
	case "content_filter", "refusal", "safety":
		return loop.FinishContentFilter
	}
	return ""
}

// prepare binds the request's tools and converts its messages and
// settings.
func (p *Provider) prepare(req loop.ModelRequest) (model.BaseChatModel, []*schema.Message, []model.Option, error) {
	var m model.BaseChatModel = p.model
	opts := settings(req)
	if len(req.Tools) > 0 {
		tools := make([]*schema.ToolInfo, 0, len(req.Tools))
		for _, t := range req.Tools {
			s := new(jsonschema.Schema)
			if err := json.Unmarshal(t.Schema, s); err != nil {
				return nil, nil, nil, fmt.Errorf("eino: tool %s: schema: %w", t.Name, err)
			}
			tools = append(tools, &schema.ToolInfo{Name: t.Name, Desc: t.Description, ParamsOneOf: schema.NewParamsOneOfByJSONSchema(s)})
		}
		bound, err := p.model.WithTools(tools)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("eino: WithTools: %w", err)
		}
		m = bound
	}
	in, err := messages(req.Messages)
	if err != nil {
		return nil, nil, nil, err
	}
	if req.Instructions != "" {
		in = append([]*schema.Message{schema.SystemMessage(req.Instructions)}, in...)
	}
	return m, in, append(opts, p.opts...), nil
}

// settings maps the loop's model settings to eino's common options:
// temperature, max tokens, stop sequences and the tool choice (a named
// tool is "forced" with that tool allowed). ParallelToolCalls has no
// common option and is left to the model's own options.
func settings(req loop.ModelRequest) []model.Option {
	s := req.Settings
	var opts []model.Option
	if s.Temperature != nil {
		opts = append(opts, model.WithTemperature(float32(*s.Temperature)))
	}
	if s.MaxOutputTokens > 0 {
		opts = append(opts, model.WithMaxTokens(int(s.MaxOutputTokens)))
	}
	if len(s.StopSequences) > 0 {
		opts = append(opts, model.WithStop(s.StopSequences))
	}
	if len(req.Tools) == 0 {
		return opts
	}
	switch c := s.ToolChoice; c.Mode {
	case loop.ToolChoiceAuto:
		opts = append(opts, model.WithToolChoice(schema.ToolChoiceAllowed))
	case loop.ToolChoiceNone:
		opts = append(opts, model.WithToolChoice(schema.ToolChoiceForbidden))
	case loop.ToolChoiceRequired:
		opts = append(opts, model.WithToolChoice(schema.ToolChoiceForced))
	case loop.ToolChoiceTool:
		opts = append(opts, model.WithToolChoice(schema.ToolChoiceForced, c.Name))
	}
	return opts
}
