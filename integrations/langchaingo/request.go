package langchaingo

import (
	"encoding/base64"
	"encoding/json"
	"fmt"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
	"github.com/tmc/langchaingo/llms"
)

// messages converts the loop's transcript; reasoning and activity
// messages are not sent back to the model.
func messages(req loop.ModelRequest) ([]llms.MessageContent, error) {
	out := make([]llms.MessageContent, 0, len(req.Messages)+1)
	if req.Instructions != "" {
		out = append(out, llms.TextParts(llms.ChatMessageTypeSystem, req.Instructions))
	}
	for _, m := range req.Messages {
		switch m := m.(type) {
		case *agui.SystemMessage:
			out = append(out, llms.TextParts(llms.ChatMessageTypeSystem, m.Content))
		case *agui.DeveloperMessage:
			out = append(out, llms.TextParts(llms.ChatMessageTypeSystem, m.Content))
		case *agui.UserMessage:
			parts, err := userParts(m)
			if err != nil {
				return nil, err
			}
			out = append(out, llms.MessageContent{Role: llms.ChatMessageTypeHuman, Parts: parts})
		case *agui.AssistantMessage:
			mc := llms.MessageContent{Role: llms.ChatMessageTypeAI}
			if m.Content != "" {
				mc.Parts = append(mc.Parts, llms.TextPart(m.Content))
			}
			for _, c := range m.ToolCalls {
				mc.Parts = append(mc.Parts, llms.ToolCall{ID: c.ID, Type: "function",
					FunctionCall: &llms.FunctionCall{Name: c.Function.Name, Arguments: c.Function.Arguments}})
			}
			if len(mc.Parts) > 0 {
				out = append(out, mc)
			}
		case *agui.ToolMessage:
			for _, p := range m.Content.Parts {
				if p.Type != agui.PartText {
					return nil, unsupported("result of call "+m.ToolCallID, p, "tool results take text only")
				}
			}
			out = append(out, llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
				llms.ToolCallResponse{ToolCallID: m.ToolCallID, Content: m.Content.String()},
			}})
		}
	}
	return out, nil
}

// userParts converts a user message's content: text, images (a URL, or
// base64 data) and other base64 data as binary parts, which each backend
// maps as far as it can.
func userParts(m *agui.UserMessage) ([]llms.ContentPart, error) {
	if !m.Content.IsParts() {
		return []llms.ContentPart{llms.TextPart(m.Content.Text)}, nil
	}
	parts := make([]llms.ContentPart, 0, len(m.Content.Parts))
	for _, p := range m.Content.Parts {
		switch {
		case p.Type == agui.PartText:
			parts = append(parts, llms.TextPart(p.Text))
		case p.Source != nil && p.Source.Type == agui.SourceURL && p.Type == agui.PartImage:
			parts = append(parts, llms.ImageURLPart(p.Source.Value))
		case p.Source != nil && p.Source.Type == agui.SourceData:
			data, err := base64.StdEncoding.DecodeString(p.Source.Value)
			if err != nil {
				return nil, unsupported("message "+m.ID, p, "invalid base64 data")
			}
			parts = append(parts, llms.BinaryPart(p.Source.MimeType, data))
		default:
			return nil, unsupported("message "+m.ID, p, "parts must be text, an image URL or base64 data")
		}
	}
	return parts, nil
}

// unsupported is the coded error of a content part the provider cannot
// pass on.
func unsupported(where string, p agui.ContentPart, why string) error {
	return agui.NewError(loop.CodeUnsupportedContent, fmt.Sprintf("langchaingo: %s: %s part: %s", where, p.Type, why))
}

// callOptions maps the loop's request to langchaingo call options: tools,
// temperature, the output token limit, stop sequences, the tool choice and
// JSON mode for a typed output. ParallelToolCalls has no langchaingo
// option and is ignored.
func (p *Provider) callOptions(req loop.ModelRequest) ([]llms.CallOption, error) {
	opts := append([]llms.CallOption(nil), p.opts...)
	s := req.Settings
	if s.Temperature != nil {
		opts = append(opts, llms.WithTemperature(*s.Temperature))
	}
	if s.MaxOutputTokens > 0 {
		opts = append(opts, llms.WithMaxTokens(int(s.MaxOutputTokens)))
	}
	if len(s.StopSequences) > 0 {
		opts = append(opts, llms.WithStopWords(s.StopSequences))
	}
	if req.Output != nil {
		opts = append(opts, llms.WithJSONMode())
	}
	if len(req.Tools) == 0 {
		return opts, nil
	}
	tools := make([]llms.Tool, 0, len(req.Tools))
	for _, t := range req.Tools {
		var schema map[string]any
		if err := json.Unmarshal(t.Schema, &schema); err != nil {
			return nil, fmt.Errorf("langchaingo: tool %s: schema: %w", t.Name, err)
		}
		tools = append(tools, llms.Tool{Type: "function", Function: &llms.FunctionDefinition{
			Name: t.Name, Description: t.Description, Parameters: schema,
		}})
	}
	opts = append(opts, llms.WithTools(tools))
	switch s.ToolChoice.Mode {
	case loop.ToolChoiceAuto, loop.ToolChoiceNone, loop.ToolChoiceRequired:
		opts = append(opts, llms.WithToolChoice(string(s.ToolChoice.Mode)))
	case loop.ToolChoiceTool:
		opts = append(opts, llms.WithToolChoice(llms.ToolChoice{Type: "function",
			Function: &llms.FunctionReference{Name: s.ToolChoice.Name}}))
	}
	return opts, nil
}
