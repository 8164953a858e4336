package langchaingo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"runtime/debug"
	"strings"

	"github.com/agui-go/agui/loop"
	"github.com/tmc/langchaingo/llms"
)

// Provider drives a loop with any langchaingo model. It is safe for
// concurrent use when the model is: langchaingo's backends are, the fake
// model of llms/fake is not.
type Provider struct {
	model llms.Model
	opts  []llms.CallOption
}

var _ loop.Provider = (*Provider)(nil)

// Option configures a [Provider].
type Option func(*Provider) error

// WithCallOptions adds langchaingo call options to every request, such as
// llms.WithModel or llms.WithThinking (default: none). They are applied
// before the options the provider derives from the loop's request, so the
// loop's settings, tools and streaming functions win.
func WithCallOptions(opts ...llms.CallOption) Option {
	return func(p *Provider) error {
		p.opts = append(p.opts, opts...)
		return nil
	}
}

// New returns a provider backed by model.
func New(model llms.Model, opts ...Option) (*Provider, error) {
	if model == nil {
		return nil, errors.New("langchaingo: New: nil model")
	}
	p := &Provider{model: model}
	for _, o := range opts {
		if err := o(p); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// errStopped is what the streaming functions return to stop a backend once
// the loop stopped reading.
var errStopped = errors.New("langchaingo: the loop stopped reading")

// Stream implements [loop.Provider]. It calls GenerateContent on the
// caller's goroutine with streaming functions that hand each chunk to the
// loop as it arrives, then reconciles the chunks with the final response
// (see the package doc).
func (p *Provider) Stream(ctx context.Context, req loop.ModelRequest) iter.Seq2[loop.Delta, error] {
	return func(yield func(loop.Delta, error) bool) {
		msgs, err := messages(req)
		if err != nil {
			yield(loop.Delta{}, err)
			return
		}
		opts, err := p.callOptions(req)
		if err != nil {
			yield(loop.Delta{}, err)
			return
		}
		s := &turn{yield: yield}
		opts = append(opts,
			llms.WithStreamingFunc(s.text),
			llms.WithStreamingReasoningFunc(s.reasoning))
		resp, err := s.generate(ctx, p.model, msgs, opts)
		switch {
		case s.stopped:
			return
		case ctx.Err() != nil:
			yield(loop.Delta{}, context.Cause(ctx))
			return
		case err != nil:
			yield(loop.Delta{}, wrap(err))
			return
		}
		s.finish(resp)
	}
}

// turn is the state of one Stream call; the backend calls its streaming
// functions one at a time.
type turn struct {
	yield func(loop.Delta, error) bool
	// stopped: the loop's yield returned false; nothing more is yielded.
	stopped bool
	// inYield: a panic now comes from the loop's side, not the model's.
	inYield bool
	// streamed is the text yielded so far.
	streamed strings.Builder
	// held: a chunk looked like a tool call's JSON (some backends, such
	// as OpenAI's, pass tool call fragments to the streaming function), so
	// text is no longer streamed; the rest comes from the final response.
	held bool
	// reasoned: reasoning was streamed, so the final one is not sent again.
	reasoned bool
}

// send yields d unless the loop stopped; false means stop the backend.
func (s *turn) send(d loop.Delta) bool {
	if s.stopped {
		return false
	}
	s.inYield = true
	ok := s.yield(d, nil)
	s.inYield = false
	if !ok {
		s.stopped = true
	}
	return ok
}

func (s *turn) text(_ context.Context, chunk []byte) error {
	if len(chunk) == 0 || s.held {
		return nil
	}
	if looksLikeToolCall(chunk) {
		s.held = true
		return nil
	}
	if !s.send(loop.Delta{Text: string(chunk)}) {
		return errStopped
	}
	s.streamed.Write(chunk)
	return nil
}

func (s *turn) reasoning(_ context.Context, reasoning, _ []byte) error {
	// The content chunk is ignored: the backends that call this function
	// also pass it to the plain streaming function.
	if len(reasoning) == 0 {
		return nil
	}
	s.reasoned = true
	if !s.send(loop.Delta{Reasoning: string(reasoning)}) {
		return errStopped
	}
	return nil
}

// looksLikeToolCall reports whether a streamed chunk is a JSON object or
// array, which is how backends pass tool call fragments to the streaming
// function. Text that happens to be one is not lost: it comes from the
// final response instead.
func looksLikeToolCall(chunk []byte) bool {
	t := strings.TrimSpace(string(chunk))
	return (strings.HasPrefix(t, "[") || strings.HasPrefix(t, "{")) && json.Valid([]byte(t))
}

// PanicError is the error of a turn whose model panicked: the run fails
// with loop's PROVIDER_ERROR and the panic, with its stack, stays in the
// error for the log. It is immutable.
type PanicError struct {
	Value any
	Stack []byte
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("langchaingo: the model panicked: %v", e.Value)
}

// generate calls the model, turning a panic of the model (not one of the
// loop's, which goes on up) into a *PanicError: the loop runs providers
// on a goroutine of its own, where a panic would end the process.
func (s *turn) generate(ctx context.Context, m llms.Model, msgs []llms.MessageContent, opts []llms.CallOption) (resp *llms.ContentResponse, err error) {
	defer func() {
		if s.inYield {
			return // the loop's panic continues unrecovered
		}
		if v := recover(); v != nil {
			resp, err = nil, &PanicError{Value: v, Stack: debug.Stack()}
		}
	}()
	return m.GenerateContent(ctx, msgs, opts...)
}

// finish yields what the final response holds and the stream did not:
// text the backend did not stream, reasoning, tool calls, the finish
// reason and usage.
func (s *turn) finish(resp *llms.ContentResponse) {
	if resp == nil || len(resp.Choices) == 0 || resp.Choices[0] == nil {
		return
	}
	c := resp.Choices[0]
	if r := reasoningOf(c); !s.reasoned && r != "" && !s.send(loop.Delta{Reasoning: r}) {
		return
	}
	// The final content extends what was streamed; a backend whose final
	// content differs (trimmed, say) is trusted for what it streamed.
	if rest, ok := strings.CutPrefix(c.Content, s.streamed.String()); ok && rest != "" && !s.send(loop.Delta{Text: rest}) {
		return
	}
	calls := c.ToolCalls
	if len(calls) == 0 && c.FuncCall != nil {
		calls = []llms.ToolCall{{Type: "function", FunctionCall: c.FuncCall}}
	}
	for i, tc := range calls {
		if tc.FunctionCall == nil {
			continue
		}
		d := &loop.ToolCallDelta{Index: i, ID: tc.ID, Name: tc.FunctionCall.Name, Args: tc.FunctionCall.Arguments}
		if !s.send(loop.Delta{ToolCall: d}) {
			return
		}
	}
	if f := finishOf(c.StopReason); f != "" && !s.send(loop.Delta{Finish: f}) {
		return
	}
	if u, ok := usageOf(c.GenerationInfo); ok {
		s.send(loop.Delta{Usage: &u})
	}
}

// reasoningOf is a choice's reasoning: its ReasoningContent, or the
// "ReasoningContent"/"ThinkingContent" generation info some backends set
// instead.
func reasoningOf(c *llms.ContentChoice) string {
	if c.ReasoningContent != "" {
		return c.ReasoningContent
	}
	for _, k := range []string{"ReasoningContent", "ThinkingContent"} {
		if s, ok := c.GenerationInfo[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

// finishOf maps the stop reasons of langchaingo's backends that mean an
// early end; every other reason is a normal end.
func finishOf(reason string) loop.FinishReason {
	switch strings.ToLower(reason) {
	case "length", "max_tokens", "model_length":
		return loop.FinishLength
	case "content_filter", "refusal", "safety", "blocklist", "prohibited_content", "spii", "recitation":
		return loop.FinishContentFilter
	}
	return ""
}

// usageOf reads the token counts backends put in GenerationInfo under
// their own names (OpenAI's, Anthropic's, Ollama's and Google's).
func usageOf(info map[string]any) (loop.Usage, bool) {
	var u loop.Usage
	u.InputTokens = count(info, "PromptTokens", "InputTokens")
	u.OutputTokens = count(info, "CompletionTokens", "OutputTokens")
	u.ReasoningTokens = count(info, "ReasoningTokens", "ThinkingTokens")
	u.CachedInputTokens = count(info, "PromptCachedTokens", "CacheReadInputTokens", "CachedTokens")
	u.CacheWriteInputTokens = count(info, "CacheCreationInputTokens")
	return u, !u.IsZero()
}

// count is the first of keys that holds a number.
func count(info map[string]any, keys ...string) int64 {
	for _, k := range keys {
		switch v := info[k].(type) {
		case int:
			return int64(v)
		case int32:
			return int64(v)
		case int64:
			return v
		case float64:
			return int64(v)
		}
	}
	return 0
}
