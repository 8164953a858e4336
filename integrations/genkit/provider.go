package genkit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"runtime/debug"

	"github.com/agui-go/agui/loop"
	"github.com/firebase/genkit/go/ai"
)

// Provider drives a loop with a Genkit model (ai.Model: a plugin's model,
// or one defined with genkit.DefineModel). The loop runs the tools; the
// model is asked one turn at a time, with the loop's tools as tool
// definitions. It is safe for concurrent use when the model is.
type Provider struct {
	model ai.Model
}

var _ loop.Provider = (*Provider)(nil)

// NewProvider returns a provider backed by model, such as
// genkit.LookupModel(g, "googleai/gemini-2.5-flash").
func NewProvider(model ai.Model) (*Provider, error) {
	if model == nil {
		return nil, errors.New("genkit: NewProvider: nil model")
	}
	return &Provider{model: model}, nil
}

// PanicError is the error of a turn whose model panicked: the run fails
// with loop's PROVIDER_ERROR and the panic, with its stack, stays in the
// error for the log. It is immutable.
type PanicError struct {
	Value any
	Stack []byte
}

func (e *PanicError) Error() string { return fmt.Sprintf("genkit: the model panicked: %v", e.Value) }

// Stream implements [loop.Provider]: text and reasoning stream from the
// model's chunks; tool requests, text the model did not stream, the
// finish reason and usage come from its response.
func (p *Provider) Stream(ctx context.Context, req loop.ModelRequest) iter.Seq2[loop.Delta, error] {
	return func(yield func(loop.Delta, error) bool) {
		mr, err := request(req)
		if err != nil {
			yield(loop.Delta{}, err)
			return
		}
		t := &turn{yield: yield}
		resp, err := t.generate(ctx, p.model, mr)
		switch {
		case t.stopped:
			return
		case ctx.Err() != nil:
			yield(loop.Delta{}, context.Cause(ctx))
			return
		case err != nil:
			yield(loop.Delta{}, err)
			return
		}
		t.finish(resp)
	}
}

// errStopped stops the model once the loop stopped reading.
var errStopped = errors.New("genkit: the loop stopped reading")

// turn is the state of one Stream call.
type turn struct {
	yield            func(loop.Delta, error) bool
	stopped, inYield bool
	texted, reasoned bool
}

func (t *turn) send(d loop.Delta) bool {
	if t.stopped {
		return false
	}
	t.inYield = true
	ok := t.yield(d, nil)
	t.inYield = false
	t.stopped = !ok
	return ok
}

func (t *turn) chunk(_ context.Context, c *ai.ModelResponseChunk) error {
	for _, p := range c.Content {
		var d loop.Delta
		switch {
		case p.IsReasoning() && p.Text != "":
			t.reasoned = true
			d.Reasoning = p.Text
		case p.IsText() && p.Text != "":
			t.texted = true
			d.Text = p.Text
		default:
			continue
		}
		if !t.send(d) {
			return errStopped
		}
	}
	return nil
}

// generate calls the model, turning the model's panic (not the loop's,
// which goes on up) into a *PanicError: the loop runs providers on a
// goroutine of its own, where a panic would end the process.
func (t *turn) generate(ctx context.Context, m ai.Model, req *ai.ModelRequest) (resp *ai.ModelResponse, err error) {
	defer func() {
		if t.inYield {
			return
		}
		if v := recover(); v != nil {
			resp, err = nil, &PanicError{Value: v, Stack: debug.Stack()}
		}
	}()
	return m.Generate(ctx, req, t.chunk)
}

func (t *turn) finish(resp *ai.ModelResponse) {
	if resp == nil {
		return
	}
	if m := resp.Message; m != nil {
		i := 0
		for _, p := range m.Content {
			var d loop.Delta
			switch {
			case p.IsReasoning() && !t.reasoned:
				d.Reasoning = p.Text
			case p.IsText() && !t.texted:
				d.Text = p.Text
			case p.IsToolRequest():
				args, err := json.Marshal(p.ToolRequest.Input)
				if err != nil {
					t.yield(loop.Delta{}, fmt.Errorf("genkit: arguments of tool %s: %w", p.ToolRequest.Name, err))
					return
				}
				d.ToolCall = &loop.ToolCallDelta{Index: i, ID: p.ToolRequest.Ref, Name: p.ToolRequest.Name, Args: string(args)}
				i++
			default:
				continue
			}
			if d != (loop.Delta{}) && !t.send(d) {
				return
			}
		}
	}
	switch resp.FinishReason {
	case ai.FinishReasonLength:
		if !t.send(loop.Delta{Finish: loop.FinishLength}) {
			return
		}
	case ai.FinishReasonBlocked:
		if !t.send(loop.Delta{Finish: loop.FinishContentFilter}) {
			return
		}
	}
	if u := resp.Usage; u != nil {
		lu := loop.Usage{
			InputTokens:       int64(u.InputTokens),
			OutputTokens:      int64(u.OutputTokens),
			ReasoningTokens:   int64(u.ThoughtsTokens),
			CachedInputTokens: int64(u.CachedContentTokens),
		}
		if !lu.IsZero() {
			t.send(loop.Delta{Usage: &lu})
		}
	}
}

// request converts the loop's request: instructions to a system message,
// the transcript as for [Agent], tools to tool definitions, settings to
// ai.GenerationCommonConfig (temperature, output token limit, stop
// sequences) and the tool choice; a named tool choice is sent as
// "required" with only that tool, and ParallelToolCalls is ignored. A
// typed output asks for JSON with its schema.
func request(req loop.ModelRequest) (*ai.ModelRequest, error) {
	msgs, err := toGenkit(req.Messages)
	if err != nil {
		return nil, err
	}
	if req.Instructions != "" {
		msgs = append([]*ai.Message{ai.NewSystemTextMessage(req.Instructions)}, msgs...)
	}
	mr := &ai.ModelRequest{Messages: msgs}
	s := req.Settings
	cfg := &ai.GenerationCommonConfig{MaxOutputTokens: int(s.MaxOutputTokens), StopSequences: s.StopSequences}
	if s.Temperature != nil {
		cfg.Temperature = *s.Temperature
	}
	mr.Config = cfg
	for _, t := range req.Tools {
		if s.ToolChoice.Mode == loop.ToolChoiceTool && t.Name != s.ToolChoice.Name {
			continue
		}
		var schema map[string]any
		if err := json.Unmarshal(t.Schema, &schema); err != nil {
			return nil, fmt.Errorf("genkit: tool %s: schema: %w", t.Name, err)
		}
		mr.Tools = append(mr.Tools, &ai.ToolDefinition{Name: t.Name, Description: t.Description, InputSchema: schema})
	}
	switch s.ToolChoice.Mode {
	case loop.ToolChoiceAuto:
		mr.ToolChoice = ai.ToolChoiceAuto
	case loop.ToolChoiceNone:
		mr.ToolChoice = ai.ToolChoiceNone
	case loop.ToolChoiceRequired, loop.ToolChoiceTool:
		mr.ToolChoice = ai.ToolChoiceRequired
	}
	if o := req.Output; o != nil {
		var schema map[string]any
		if len(o.Schema) > 0 {
			if err := json.Unmarshal(o.Schema, &schema); err != nil {
				return nil, fmt.Errorf("genkit: output schema: %w", err)
			}
		}
		mr.Output = &ai.ModelOutputConfig{Format: "json", ContentType: "application/json", Schema: schema}
	}
	return mr, nil
}
