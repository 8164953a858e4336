package a2ui

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/loop"
)

// GenerateToolName is the name of the tool [Generate] returns.
const GenerateToolName = "generate_a2ui"

const generateSchema = `{
  "type": "object",
  "properties": {
    "intent": {"type": "string", "description": "What to do: \"create\" a surface (the default)."},
    "prompt": {"type": "string", "description": "What the surface should show, when the conversation does not say it."}
  }
}`

const generateDescription = "Generate a rich user interface (an A2UI surface: cards, lists, comparisons) for the user's request. Call it when a visual answer helps."

// Generate returns the generate_a2ui tool, the planner side of the
// planner and sub-agent pattern: the agent's model decides that a surface
// helps and calls generate_a2ui; the tool asks model (a second model call,
// which may be the same provider) for the surface, forced to call
// render_a2ui (tool choice [loop.UseTool]), checks what it wrote
// ([Validate]) and answers as [Render] does: the envelope of a valid
// surface, or, after [WithMaxAttempts] invalid ones, the [Failure]. Each
// retry's system prompt ends with what was wrong:
//
//	<prompt>
//
//	## Previous attempt was invalid — fix these and regenerate:
//	- [A2UI_UNRESOLVED_CHILD] components[0].children.componentId: "card" is not the id of a component
//
// The sub-model gets the system prompt ([WithInstructions], with the
// catalog's component types), the conversation (the run input's user
// messages and assistant text, [core.InputFrom], as a route serves them)
// and the call's prompt argument, when given, as a last user message. Its
// token usage is not added to the run's. A provider error fails the call
// with [loop.CodeProvider] and a fixed message.
//
// The tool is safe for concurrent use.
func Generate(model loop.Provider, opts ...Option) (loop.Tool, error) {
	if model == nil {
		return loop.Tool{}, errors.New("a2ui: Generate: nil model")
	}
	c, err := newConfig(opts)
	if err != nil {
		return loop.Tool{}, err
	}
	g := &generator{cfg: c, model: model, instructions: c.instructions + catalogNote(c.catalog)}
	return loop.RawTool(GenerateToolName, generateDescription, json.RawMessage(generateSchema), g.call)
}

type generator struct {
	cfg          config
	model        loop.Provider
	instructions string
}

func (g *generator) call(ctx context.Context, args json.RawMessage) (string, error) {
	var in struct {
		Prompt string `json:"prompt"`
	}
	if err := json.Unmarshal(args, &in); err != nil {
		return "", err
	}
	msgs := conversation(ctx)
	if in.Prompt != "" {
		msgs = append(msgs, loop.UserText(in.Prompt))
	}
	if err := g.progress(ctx, map[string]any{"status": "building"}); err != nil {
		return "", err
	}
	var attempts []Attempt
	instructions := g.instructions
	for n := 1; n <= g.cfg.maxAttempts; n++ {
		raw, err := g.ask(ctx, loop.ModelRequest{
			Instructions: instructions,
			Messages:     msgs,
			Tools:        []loop.ToolSpec{{Name: RenderToolName, Description: renderDescription, Schema: json.RawMessage(renderSchema)}},
			Settings:     loop.ModelSettings{ToolChoice: loop.UseTool(RenderToolName)},
		})
		var s Surface
		var ps []Problem
		switch {
		case errors.Is(err, errTooLarge):
			ps = []Problem{{Code: CodeTooLarge, Path: "surface", Message: "the surface is over 1 MiB of JSON"}}
		case err != nil:
			return "", err
		case raw == nil:
			ps = []Problem{{Code: CodeNoRender, Path: "surface", Message: "the model did not call " + RenderToolName}}
		default:
			s, ps = g.cfg.check(raw)
		}
		if len(ps) == 0 {
			return g.cfg.paint(ctx, s)
		}
		attempts = append(attempts, Attempt{Attempt: n, Errors: ps})
		instructions = g.instructions + "\n\n" + retryNotes(ps)
		if n < g.cfg.maxAttempts {
			if err := g.progress(ctx, map[string]any{"status": "retrying", "attempt": n + 1, "maxAttempts": g.cfg.maxAttempts, "errors": problemList(ps)}); err != nil {
				return "", err
			}
		}
	}
	return g.cfg.fail(ctx, attempts)
}

func (g *generator) progress(ctx context.Context, content map[string]any) error {
	if !g.cfg.activity {
		return nil
	}
	return loop.Progress(ctx, ActivityType, content)
}

// ask runs one sub-model turn and returns the arguments of its first
// render_a2ui call, nil when it made none.
func (g *generator) ask(ctx context.Context, req loop.ModelRequest) (json.RawMessage, error) {
	type call struct {
		name string
		args strings.Builder
		over bool
	}
	var calls []*call
	for d, err := range g.model.Stream(ctx, req) {
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, &agui.Error{Code: loop.CodeProvider, Message: "the model failed", Err: err}
		}
		tc := d.ToolCall
		if tc == nil || tc.Index < 0 || tc.Index > 64 {
			continue
		}
		for len(calls) <= tc.Index {
			calls = append(calls, &call{})
		}
		c := calls[tc.Index]
		if tc.Name != "" {
			c.name = tc.Name
		}
		if c.over = c.over || c.args.Len()+len(tc.Args) > maxArgsBytes; !c.over {
			c.args.WriteString(tc.Args)
		}
	}
	for _, c := range calls {
		if c.name == RenderToolName {
			if c.over {
				return nil, errTooLarge
			}
			if c.args.Len() == 0 {
				return json.RawMessage("{}"), nil
			}
			return json.RawMessage(c.args.String()), nil
		}
	}
	return nil, nil
}

// errTooLarge is ask's error for a render call whose arguments are over
// maxArgsBytes.
var errTooLarge = errors.New("a2ui: surface too large")

// conversation is what the sub-model reads of the run's input: its user
// messages and the text of its assistant messages, without tool calls,
// tool results or activities.
func conversation(ctx context.Context) []agui.Message {
	in, ok := core.InputFrom(ctx)
	if !ok {
		return nil
	}
	var out []agui.Message
	for _, m := range in.Messages {
		switch m := m.(type) {
		case *agui.UserMessage:
			out = append(out, m)
		case *agui.AssistantMessage:
			if m.Content != "" {
				out = append(out, &agui.AssistantMessage{ID: m.ID, Content: m.Content})
			}
		}
	}
	return out
}

// catalogNote tells the sub-model which component types it may use.
func catalogNote(c *Catalog) string {
	if c == nil {
		return ""
	}
	names := make([]string, 0, len(c.Components))
	for n, t := range c.Components {
		s := n
		if len(t.Required) > 0 {
			s += " (requires " + strings.Join(t.Required, ", ") + ")"
		}
		names = append(names, s)
	}
	slices.Sort(names)
	return "\n\nUse catalogId " + c.ID + " and only these component types: " + strings.Join(names, "; ") + "."
}

// problemList is ps as strings, for an activity's content.
func problemList(ps []Problem) []any {
	out := make([]any, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return out
}
