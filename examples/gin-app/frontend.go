package main

import (
	"context"
	"encoding/json"
	"iter"
	"strings"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/examples/internal/model"
	"github.com/agui-go/agui/loop"
)

// frontendState is the /agents/frontend route's shared state: the theme
// colour the model last asked the page for (mirrored from the call's
// arguments while they stream) and the client's own keys, kept as they
// are.
type frontendState struct {
	Theme string `json:"theme,omitempty"`
}

// themeTool is the frontend tool the chat page registers; its color
// argument is mirrored into the state's theme while the model streams it.
const themeTool = "set_theme_color"

// statePrefix starts the line of the system prompt that carries the state
// for the scripted model.
const statePrefix = "STATE "

// newFrontendAgent is a loop agent whose tools are the client's: on a
// user message its scripted model calls the first tool of the input's
// tools with arguments valid for its schema ({} when it has no required
// properties); once the client's result arrives in the next run, it
// answers with a text that contains the result's content verbatim and the
// theme the shared state holds. m may choose a real model instead.
func newFrontendAgent(m model.Flags, opts ...loop.Option) (*loop.Typed[frontendState], error) {
	provider, err := m.New(loop.ProviderFunc(frontendModel))
	if err != nil {
		return nil, err
	}
	return loop.NewTyped[frontendState](provider, append([]loop.Option{
		loop.WithInstructions("You help the user through the tools of their page."),
		loop.WithPredictState(themeTool, map[string]string{"color": "theme"}),
		loop.WithRenderContext(func(state json.RawMessage, _ []agui.ContextItem) string {
			return statePrefix + string(state)
		}),
	}, opts...)...)
}

// frontendModel is the scripted model of newFrontendAgent.
func frontendModel(ctx context.Context, req loop.ModelRequest) iter.Seq2[loop.Delta, error] {
	return func(yield func(loop.Delta, error) bool) {
		if err := ctx.Err(); err != nil {
			yield(loop.Delta{}, err)
			return
		}
		var last agui.Message
		if n := len(req.Messages); n > 0 {
			last = req.Messages[n-1]
		}
		if tm, ok := last.(*agui.ToolMessage); ok {
			text := "The page's tool answered: " + tm.Content.String()
			if theme := stateTheme(req.Instructions); theme != "" {
				text += " The shared state's theme is " + theme + "."
			}
			yield(loop.Delta{Text: text}, nil)
			return
		}
		if len(req.Tools) == 0 {
			yield(loop.Delta{Text: "Your page offers no tool, so there is nothing for me to call."}, nil)
			return
		}
		t := req.Tools[0]
		args := exampleArgs(t.Schema)
		// Arguments stream in two pieces, as a real model's do, so that
		// predictive state shows the first before the call ends.
		half := len(args) / 2
		if !yield(loop.Delta{Text: "Calling your page's " + t.Name + " tool."}, nil) ||
			!yield(loop.Delta{ToolCall: &loop.ToolCallDelta{Name: t.Name, Args: args[:half]}}, nil) {
			return
		}
		yield(loop.Delta{ToolCall: &loop.ToolCallDelta{Args: args[half:]}}, nil)
	}
}

// stateTheme reads the theme from the system prompt's state line.
func stateTheme(instructions string) string {
	_, line, ok := strings.Cut(instructions, statePrefix)
	if !ok {
		return ""
	}
	var st frontendState
	if json.Unmarshal([]byte(line), &st) != nil {
		return ""
	}
	return st.Theme
}

// exampleArgs returns arguments valid for a tool's JSON Schema: each
// required property gets its default, its first enum value or example,
// or a plain value of its type; the rest are left out.
func exampleArgs(schema json.RawMessage) string {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return "{}"
	}
	args := map[string]any{}
	for _, name := range s.Required {
		args[name] = exampleValue(s.Properties[name])
	}
	b, err := json.Marshal(args)
	if err != nil {
		return "{}"
	}
	return string(b)
}

func exampleValue(schema json.RawMessage) any {
	var p struct {
		Type     any   `json:"type"`
		Default  any   `json:"default"`
		Enum     []any `json:"enum"`
		Examples []any `json:"examples"`
	}
	_ = json.Unmarshal(schema, &p) // an unreadable schema gets a string
	switch {
	case p.Default != nil:
		return p.Default
	case len(p.Enum) > 0:
		return p.Enum[0]
	case len(p.Examples) > 0:
		return p.Examples[0]
	}
	typ, _ := p.Type.(string)
	if list, ok := p.Type.([]any); ok && len(list) > 0 {
		typ, _ = list[0].(string)
	}
	switch typ {
	case "integer", "number":
		return 1
	case "boolean":
		return true
	case "array":
		return []any{}
	case "object":
		return map[string]any{}
	case "null":
		return nil
	}
	return "example"
}
