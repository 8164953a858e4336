package genkit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/firebase/genkit/go/ai"
	gk "github.com/firebase/genkit/go/genkit"
)

// Codes of the errors an [Agent] run fails with; RUN_ERROR carries them,
// so their values never change.
const (
	// CodeGenerate: genkit.Generate failed (the model, a tool, the
	// maximum number of turns). The client gets a fixed message; the
	// full error is in the run's log line.
	//
	// A resume that does not answer the interrupted calls of the thread's
	// last assistant message fails with loop.CodeBadResume, and content
	// Genkit cannot take with loop.CodeUnsupportedContent.
	CodeGenerate agui.Code = "GENKIT_ERROR"
)

// ReasonToolInterrupt is the reason of the AG-UI interrupts that stand for
// a Genkit tool interrupt.
const ReasonToolInterrupt = "tool_interrupt"

// Agent serves genkit.Generate calls as an AG-UI agent: each run is one
// Generate call over the thread's messages with the agent's options
// (model, tools, system prompt, config…), streamed as AG-UI events. It is
// immutable and safe for concurrent use.
type Agent struct {
	g    *gk.Genkit
	opts []ai.GenerateOption
}

var _ core.Agent[core.NoState] = (*Agent)(nil)

// NewAgent returns an agent that runs genkit.Generate on g with opts,
// such as ai.WithModel, ai.WithTools, ai.WithSystem and ai.WithConfig.
// The agent adds the thread's messages, a streaming callback and a model
// middleware itself, so opts must not set ai.WithMessages,
// ai.WithStreaming or ai.WithMiddleware (Generate refuses options set
// twice).
func NewAgent(g *gk.Genkit, opts ...ai.GenerateOption) (*Agent, error) {
	if g == nil {
		return nil, errors.New("genkit: NewAgent: nil Genkit")
	}
	return &Agent{g: g, opts: opts}, nil
}

// Run implements core.Agent: it converts the input's messages, answers
// the interrupts of an earlier run from the input's resume, and streams
// one Generate call (see the package doc for the mapping).
func (a *Agent) Run(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
	in := rc.Input()
	history, err := toGenkit(in.Messages)
	if err != nil {
		return agui.Outcome{}, err
	}
	s := &stream{rc: rc, calls: map[string]*core.ToolCallHandle{}}
	opts := append([]ai.GenerateOption(nil), a.opts...)
	if len(in.Resume) > 0 {
		r, err := resume(history, in.Resume)
		if err != nil {
			return agui.Outcome{}, err
		}
		history, s.answered = r.history, r.answered
		opts = append(opts, r.opts...)
	}
	opts = append(opts,
		ai.WithMessages(history...),
		ai.WithStreaming(s.chunk),
		ai.WithMiddleware(s.middleware))
	resp, err := gk.Generate(ctx, a.g, opts...)
	if err != nil {
		var own *agui.Error
		switch {
		case ctx.Err() != nil:
			return agui.Outcome{}, context.Cause(ctx)
		case errors.As(err, &own):
			// An emit of ours failed inside Genkit's callback or
			// middleware: its code (a protocol violation, say) says why.
			return agui.Outcome{}, err
		}
		return agui.Outcome{}, &agui.Error{Code: CodeGenerate, Message: "the Genkit generation failed", Err: err}
	}
	if err := s.close(); err != nil {
		return agui.Outcome{}, err
	}
	if resp.FinishReason != ai.FinishReasonInterrupted || resp.Message == nil {
		return agui.Success(), nil
	}
	return s.interrupted(resp.Message)
}

// stream turns one Generate call's chunks and turns into events. Genkit
// calls the streaming callback and the middleware one at a time, on the
// goroutine that called Generate.
type stream struct {
	rc        *core.RunContext[core.NoState]
	msg       *core.MessageHandle
	reasoning *core.ReasoningHandle
	// texted and reasoned: the current turn streamed text or reasoning,
	// so its final message's are not sent again.
	texted, reasoned bool
	// said is the id of the turn's text message, the parent of its tool
	// calls, so that a client keeps them in one assistant message.
	said string
	// calls are this run's tool calls by id, the ref Genkit matches
	// results and resumes by.
	calls map[string]*core.ToolCallHandle
	// answered are calls of an earlier run whose results the client has.
	answered map[string]bool
}

// chunk is the streaming callback: a model chunk's text and reasoning
// stream as they come (its tool requests wait for the turn's end, where
// they are complete and have their refs); a tool chunk carries the turn's
// tool results.
func (s *stream) chunk(_ context.Context, c *ai.ModelResponseChunk) error {
	if c.Role == ai.RoleTool {
		if err := s.close(); err != nil {
			return err
		}
		for _, p := range c.Content {
			if p.IsToolResponse() {
				if err := s.result(p.ToolResponse.Ref, p.ToolResponse.Name, p.ToolResponse.Output); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for _, p := range c.Content {
		var err error
		switch {
		case p.IsReasoning():
			s.reasoned = true
			err = s.think(p.Text)
		case p.IsText():
			s.texted = true
			err = s.say(p.Text)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// middleware wraps each model call of the Generate loop: at the end of a
// turn it sends what was not streamed, then the turn's tool calls.
func (s *stream) middleware(next ai.ModelFunc) ai.ModelFunc {
	return func(ctx context.Context, req *ai.ModelRequest, cb ai.ModelStreamCallback) (*ai.ModelResponse, error) {
		s.texted, s.reasoned, s.said = false, false, ""
		resp, err := next(ctx, req, cb)
		if err != nil || resp == nil {
			return resp, err
		}
		if u := resp.Usage; u != nil && (u.InputTokens != 0 || u.OutputTokens != 0 || u.TotalTokens != 0) {
			// Genkit fills in character and media counts of its own;
			// only a model's token counts are usage.
			s.rc.AddUsage(usage(u))
		}
		if resp.Message == nil {
			return resp, nil
		}
		return resp, s.turn(resp.Message)
	}
}

// turn sends a finished model message: its reasoning and text unless they
// were streamed, then its tool calls, each with an id that is also its
// ref (Genkit keeps a ref that is set).
func (s *stream) turn(m *ai.Message) error {
	for _, p := range m.Content {
		var err error
		switch {
		case p.IsReasoning() && !s.reasoned:
			err = s.think(p.Text)
		case p.IsText() && !s.texted:
			err = s.say(p.Text)
		}
		if err != nil {
			return err
		}
	}
	if err := s.close(); err != nil {
		return err
	}
	for _, p := range m.Content {
		if !p.IsToolRequest() {
			continue
		}
		tr := p.ToolRequest
		if tr.Ref == "" {
			tr.Ref = s.rc.NewID("call")
		}
		args, err := json.Marshal(tr.Input)
		if err != nil {
			return &agui.Error{Code: agui.CodeSerialization, Message: "genkit: arguments of tool call " + tr.Ref, Err: err}
		}
		opts := []core.ToolCallOption{core.WithToolCallID(tr.Ref)}
		if s.said != "" {
			opts = append(opts, core.WithParentMessage(s.said))
		}
		h, err := s.rc.ToolCall(tr.Name, opts...)
		if err != nil {
			return err
		}
		if err := h.Args(string(args)); err != nil {
			return err
		}
		if err := h.End(); err != nil {
			return err
		}
		s.calls[tr.Ref] = h
	}
	return nil
}

func (s *stream) say(text string) error {
	if text == "" {
		return nil
	}
	if s.reasoning != nil {
		if err := s.reasoning.End(); err != nil {
			return err
		}
		s.reasoning = nil
	}
	if s.msg == nil {
		m, err := s.rc.Message()
		if err != nil {
			return err
		}
		s.msg, s.said = m, m.ID()
	}
	return s.msg.Delta(text)
}

func (s *stream) think(text string) error {
	if text == "" {
		return nil
	}
	if s.msg != nil {
		if err := s.msg.End(); err != nil {
			return err
		}
		s.msg = nil
	}
	if s.reasoning == nil {
		r, err := s.rc.Reasoning()
		if err != nil {
			return err
		}
		s.reasoning = r
	}
	return s.reasoning.Delta(text)
}

// close ends the open text message and reasoning.
func (s *stream) close() error {
	var err error
	if s.msg != nil {
		err = s.msg.End()
		s.msg = nil
	}
	if s.reasoning != nil {
		err = errors.Join(err, s.reasoning.End())
		s.reasoning = nil
	}
	return err
}

// result sends a tool's output as the result of call id. A call of an
// earlier run that a resume answered is started again without arguments
// (the client holds them), as the loop does, since a result must name a
// call of its own run.
func (s *stream) result(id, name string, output any) error {
	if s.answered[id] {
		return nil // Genkit hands back the result the client sent
	}
	content, err := resultContent(output)
	if err != nil {
		return err
	}
	h, ok := s.calls[id]
	if !ok {
		if h, err = s.rc.ToolCall(name, core.WithToolCallID(id)); err != nil {
			return err
		}
		s.calls[id] = h
	}
	return h.Result(content)
}

// resultContent is a tool's output as a result's content: a string as it
// is, anything else as JSON.
func resultContent(output any) (agui.Content, error) {
	if s, ok := output.(string); ok {
		return agui.TextContent(s), nil
	}
	b, err := json.Marshal(output)
	if err != nil {
		return agui.Content{}, &agui.Error{Code: agui.CodeSerialization, Message: "genkit: a tool output is not JSON", Err: err}
	}
	return agui.TextContent(string(b)), nil
}

// interrupted ends a run whose tools interrupted: calls that finished
// (their output pending in Genkit's metadata) get their results, and each
// interrupted call becomes an AG-UI interrupt whose id is the call's.
func (s *stream) interrupted(m *ai.Message) (agui.Outcome, error) {
	var interrupts []agui.Interrupt
	for _, p := range m.Content {
		if !p.IsToolRequest() {
			continue
		}
		ref := p.ToolRequest.Ref
		if out, ok := p.Metadata["pendingOutput"]; ok {
			if err := s.result(ref, p.ToolRequest.Name, out); err != nil {
				return agui.Outcome{}, err
			}
			continue
		}
		meta, ok := p.Metadata["interrupt"]
		if !ok {
			continue
		}
		in := agui.Interrupt{ID: ref, Reason: ReasonToolInterrupt, ToolCallID: ref}
		if md, ok := meta.(map[string]any); ok {
			in.Metadata = md
		}
		interrupts = append(interrupts, in)
	}
	if len(interrupts) == 0 {
		return agui.Outcome{}, &agui.Error{Code: CodeGenerate, Message: "the Genkit generation failed", Err: fmt.Errorf("genkit: interrupted without an interrupted tool call")}
	}
	return agui.Interrupted(interrupts...), nil
}

// usage converts Genkit's usage of one model call.
func usage(u *ai.GenerationUsage) agui.TokenUsage {
	n := func(v int) *int64 {
		if v == 0 {
			return nil
		}
		x := int64(v)
		return &x
	}
	return agui.TokenUsage{
		Provider:          "genkit",
		InputTokens:       n(u.InputTokens),
		OutputTokens:      n(u.OutputTokens),
		TotalTokens:       n(u.TotalTokens),
		ReasoningTokens:   n(u.ThoughtsTokens),
		CachedInputTokens: n(u.CachedContentTokens),
	}
}
