package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/internal/sse"
	"github.com/agui-go/agui/loop"
	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/openai/openai-go/v3/shared"
)

// Provider streams chat completions of one model. It is safe for
// concurrent use.
type Provider struct {
	client oai.Client
	model  string
}

var _ loop.Provider = (*Provider)(nil)

// Option configures a [Provider].
type Option func(*config) error

// config is what the options set; New builds the provider from it.
type config struct {
	client []option.RequestOption
}

// WithClientOptions configure the client as in openai-go (base URL, API
// key, HTTP client, middleware); several calls add up, later options
// winning. Like openai.NewClient the client reads OPENAI_API_KEY and
// OPENAI_BASE_URL from the environment, and these options win over them
// (default: the environment only). The client's own retries default to 0
// (see the package doc); [option.WithMaxRetries] here overrides that.
func WithClientOptions(opts ...option.RequestOption) Option {
	return func(c *config) error {
		c.client = append(c.client, opts...)
		return nil
	}
}

// New returns a provider for model, such as "gpt-4o-mini".
func New(model string, opts ...Option) (*Provider, error) {
	if model == "" {
		return nil, errors.New("openai: New: empty model")
	}
	c := config{client: []option.RequestOption{option.WithMaxRetries(0)}}
	for _, o := range opts {
		if err := o(&c); err != nil {
			return nil, err
		}
	}
	return &Provider{client: oai.NewClient(c.client...), model: model}, nil
}

// Stream implements [loop.Provider].
func (p *Provider) Stream(ctx context.Context, req loop.ModelRequest) iter.Seq2[loop.Delta, error] {
	return func(yield func(loop.Delta, error) bool) {
		params, err := p.params(req)
		if err != nil {
			yield(loop.Delta{}, err)
			return
		}
		// The request as Chat.Completions.NewStreaming sends it; its
		// events are read as ssestream.Stream reads them (the end at
		// [DONE], an error member failing the stream), but by sse.Reader:
		// the token path's profile showed openai-go's decoder allocating a
		// buffer per event and its scanner's work at about an eighth of
		// the provider's CPU. Each event is decoded by decodeChunk.
		var raw *http.Response
		if err := p.client.Post(ctx, "chat/completions", params, &raw, option.WithJSONSet("stream", true)); err != nil {
			yield(loop.Delta{}, wrap(err))
			return
		}
		if raw == nil || raw.Body == nil {
			return
		}
		defer raw.Body.Close()
		r := sse.NewReader(raw.Body)
		var (
			c chunk
			l layout
		)
		for r.Next() {
			data := r.Data()
			if len(data) == 0 {
				continue // no data: openai-go's decoder passes over it too
			}
			if bytes.HasPrefix(data, []byte("[DONE]")) {
				return
			}
			if err := decodeChunk(ssestream.Event{Type: string(r.Type()), Data: data}, &c, &l); err != nil {
				yield(loop.Delta{}, err)
				return
			}
			if !forward(c, yield) {
				return
			}
		}
		if err := r.Err(); err != nil {
			yield(loop.Delta{}, wrap(err))
		}
	}
}

// forward yields the deltas of one chunk; false means the consumer
// stopped.
func forward(c chunk, yield func(loop.Delta, error) bool) bool {
	for _, ch := range c.Choices {
		if ch.Index != 0 {
			continue // the loop asks for one choice
		}
		d := ch.Delta
		if r := reasoning(d.ReasoningContent, d.Reasoning); r != "" && !yield(loop.Delta{Reasoning: r}, nil) {
			return false
		}
		if d.Content != "" && !yield(loop.Delta{Text: d.Content}, nil) {
			return false
		}
		if d.Refusal != "" && !yield(loop.Delta{Text: d.Refusal, Finish: loop.FinishContentFilter}, nil) {
			return false
		}
		for _, tc := range d.ToolCalls {
			td := &loop.ToolCallDelta{Index: int(tc.Index), ID: tc.ID, Name: tc.Function.Name, Args: tc.Function.Arguments}
			if !yield(loop.Delta{ToolCall: td}, nil) {
				return false
			}
		}
		if f := finishOf(ch.FinishReason); f != "" && !yield(loop.Delta{Finish: f}, nil) {
			return false
		}
	}
	if u := c.Usage; u.TotalTokens > 0 || u.PromptTokens > 0 || u.CompletionTokens > 0 {
		usage := loop.Usage{
			InputTokens:       u.PromptTokens,
			OutputTokens:      u.CompletionTokens,
			ReasoningTokens:   u.CompletionTokensDetails.ReasoningTokens,
			CachedInputTokens: u.PromptTokensDetails.CachedTokens,
		}
		if !yield(loop.Delta{Usage: &usage}, nil) {
			return false
		}
	}
	return true
}

// params converts a loop request to a chat completion request.
func (p *Provider) params(req loop.ModelRequest) (oai.ChatCompletionNewParams, error) {
	params := oai.ChatCompletionNewParams{
		Model:         shared.ChatModel(p.model),
		StreamOptions: oai.ChatCompletionStreamOptionsParam{IncludeUsage: oai.Bool(true)},
	}
	settings(&params, req)
	if err := responseFormat(&params, req.Output); err != nil {
		return params, err
	}
	if req.Instructions != "" {
		params.Messages = append(params.Messages, oai.SystemMessage(req.Instructions))
	}
	for _, m := range req.Messages {
		mp, ok, err := message(m)
		if err != nil {
			return params, err
		}
		if ok {
			params.Messages = append(params.Messages, mp)
		}
	}
	for _, t := range req.Tools {
		var schema map[string]any
		if err := json.Unmarshal(t.Schema, &schema); err != nil {
			return params, fmt.Errorf("openai: tool %s: schema: %w", t.Name, err)
		}
		def := shared.FunctionDefinitionParam{Name: t.Name, Parameters: schema}
		if t.Description != "" {
			def.Description = oai.String(t.Description)
		}
		params.Tools = append(params.Tools, oai.ChatCompletionFunctionTool(def))
	}
	return params, nil
}

// message converts one transcript message; reasoning and activity
// messages are not sent back to the model. A content part the API cannot
// take fails with loop.CodeUnsupportedContent (see userMessage).
func message(m agui.Message) (oai.ChatCompletionMessageParamUnion, bool, error) {
	switch m := m.(type) {
	case *agui.SystemMessage:
		return oai.SystemMessage(m.Content), true, nil
	case *agui.DeveloperMessage:
		return oai.DeveloperMessage(m.Content), true, nil
	case *agui.UserMessage:
		u, err := userMessage(m)
		return u, err == nil, err
	case *agui.ToolMessage:
		text, err := toolText(m)
		return oai.ToolMessage(text, m.ToolCallID), err == nil, err
	case *agui.AssistantMessage:
		var a oai.ChatCompletionAssistantMessageParam
		if m.Content != "" {
			a.Content.OfString = oai.String(m.Content)
		}
		for _, c := range m.ToolCalls {
			a.ToolCalls = append(a.ToolCalls, oai.ChatCompletionMessageToolCallUnionParam{
				OfFunction: &oai.ChatCompletionMessageFunctionToolCallParam{
					ID:       c.ID,
					Function: oai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: c.Function.Name, Arguments: c.Function.Arguments},
				},
			})
		}
		return oai.ChatCompletionMessageParamUnion{OfAssistant: &a}, true, nil
	}
	return oai.ChatCompletionMessageParamUnion{}, false, nil
}
