package anthropic

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"

	"github.com/agui-go/agui/loop"
	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
)

// Provider streams messages of one Claude model. It is immutable and safe
// for concurrent use.
type Provider struct {
	client    sdk.Client
	model     string
	maxTokens int64
	thinking  sdk.ThinkingConfigParamUnion
	// budget is the thinking budget of enabled thinking (0 otherwise).
	budget int64
	cache  bool
	// clientOpts are WithClientOptions' options, read by New.
	clientOpts []option.RequestOption
}

var _ loop.Provider = (*Provider)(nil)

// Option configures a [Provider].
type Option func(*Provider) error

// WithClientOptions configure the client as in anthropic-sdk-go (base URL, API
// key, HTTP client, middleware); several calls add up, later options
// winning. Like anthropic.NewClient the client reads ANTHROPIC_API_KEY and
// ANTHROPIC_BASE_URL from the environment, and these options win over them
// (default: the environment only). The client's own retries default to 0
// (see the package doc); [option.WithMaxRetries] here overrides that.
func WithClientOptions(opts ...option.RequestOption) Option {
	return func(p *Provider) error {
		p.clientOpts = append(p.clientOpts, opts...)
		return nil
	}
}

// WithMaxTokens is the output token limit of a turn when the agent's
// [loop.ModelSettings] set none (default 4096; the Messages API requires
// one).
func WithMaxTokens(n int64) Option {
	return func(p *Provider) error {
		if n < 1 {
			return fmt.Errorf("anthropic: MaxTokens %d: must be at least 1", n)
		}
		p.maxTokens = n
		return nil
	}
}

// WithThinking turns extended thinking on with a budget of budgetTokens
// (at least 1024, and less than the turn's output token limit); default
// off. The model's thinking streams as REASONING_* events.
func WithThinking(budgetTokens int64) Option {
	return func(p *Provider) error {
		if budgetTokens < 1024 {
			return fmt.Errorf("anthropic: Thinking %d: the budget must be at least 1024 tokens", budgetTokens)
		}
		p.thinking = sdk.ThinkingConfigParamUnion{OfEnabled: &sdk.ThinkingConfigEnabledParam{BudgetTokens: budgetTokens}}
		p.budget = budgetTokens
		return nil
	}
}

// WithAdaptiveThinking lets the model decide how much to think (default off).
// The model's thinking streams as REASONING_* events.
func WithAdaptiveThinking() Option {
	return func(p *Provider) error {
		p.thinking = sdk.ThinkingConfigParamUnion{OfAdaptive: &sdk.ThinkingConfigAdaptiveParam{}}
		p.budget = 0
		return nil
	}
}

// WithPromptCaching asks the API to cache each request's prompt up to its
// last cacheable block (a top-level cache_control breakpoint), so that the
// next turn of a run, which repeats the transcript, reads it from the cache
// (default off). [loop.Usage] reports the cache reads and writes.
func WithPromptCaching() Option {
	return func(p *Provider) error { p.cache = true; return nil }
}

// New returns a provider for model, such as "claude-sonnet-5".
func New(model string, opts ...Option) (*Provider, error) {
	if model == "" {
		return nil, errors.New("anthropic: New: empty model")
	}
	p := &Provider{model: model, maxTokens: 4096, clientOpts: []option.RequestOption{option.WithMaxRetries(0)}}
	for _, o := range opts {
		if err := o(p); err != nil {
			return nil, err
		}
	}
	p.client, p.clientOpts = sdk.NewClient(p.clientOpts...), nil
	if p.budget > 0 && p.budget >= p.maxTokens {
		return nil, fmt.Errorf("anthropic: New: thinking budget %d must be less than MaxTokens %d", p.budget, p.maxTokens)
	}
	return p, nil
}

// Stream implements [loop.Provider].
func (p *Provider) Stream(ctx context.Context, req loop.ModelRequest) iter.Seq2[loop.Delta, error] {
	return func(yield func(loop.Delta, error) bool) {
		params, err := p.params(req)
		if err != nil {
			yield(loop.Delta{}, err)
			return
		}
		// The request as Messages.NewStreaming sends it (this provider
		// sets no profile or workspace header), its events read by an
		// eventReader into event rather than the SDK's
		// MessageStreamEventUnion. A call through Client.Post names no
		// SDK method, so the SDK gives it no span to follow the events.
		var raw *http.Response
		if err := p.client.Post(ctx, "v1/messages", params, &raw, option.WithJSONSet("stream", true)); err != nil {
			yield(loop.Delta{}, wrap(err))
			return
		}
		if raw == nil || raw.Body == nil {
			yield(loop.Delta{}, &streamError{"anthropic: the stream ended before message_stop"})
			return
		}
		s := newEventReader(raw)
		defer s.Close()
		var st stream
		for s.Next() {
			if !st.forward(s.Current(), yield) {
				return
			}
		}
		if err := s.Err(); err != nil {
			yield(loop.Delta{}, wrap(err))
			return
		}
		if !st.stopped {
			yield(loop.Delta{}, &streamError{"anthropic: the stream ended before message_stop"})
		}
	}
}
