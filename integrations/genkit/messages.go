package genkit

import (
	"encoding/json"
	"fmt"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
	"github.com/firebase/genkit/go/ai"
)

// toGenkit converts AG-UI messages to Genkit's: system and developer
// messages to system messages, user content to text and media parts,
// assistant tool calls to tool requests whose ref is the call's id, and
// tool messages (adjacent ones merged, as Genkit sends them) to tool
// responses. Reasoning and activity messages are not sent to the model.
func toGenkit(msgs []agui.Message) ([]*ai.Message, error) {
	names := map[string]string{} // tool call id → tool name
	var out []*ai.Message
	for _, m := range msgs {
		switch m := m.(type) {
		case *agui.SystemMessage:
			out = append(out, ai.NewSystemTextMessage(m.Content))
		case *agui.DeveloperMessage:
			out = append(out, ai.NewSystemTextMessage(m.Content))
		case *agui.UserMessage:
			parts, err := userParts(m)
			if err != nil {
				return nil, err
			}
			out = append(out, ai.NewUserMessage(parts...))
		case *agui.AssistantMessage:
			var parts []*ai.Part
			if m.Content != "" {
				parts = append(parts, ai.NewTextPart(m.Content))
			}
			for _, c := range m.ToolCalls {
				names[c.ID] = c.Function.Name
				parts = append(parts, ai.NewToolRequestPart(&ai.ToolRequest{
					Name: c.Function.Name, Ref: c.ID, Input: decode(c.Function.Arguments),
				}))
			}
			if len(parts) > 0 {
				out = append(out, ai.NewModelMessage(parts...))
			}
		case *agui.ToolMessage:
			p := ai.NewToolResponsePart(&ai.ToolResponse{
				Name: names[m.ToolCallID], Ref: m.ToolCallID, Output: decode(m.Content.String()),
			})
			if n := len(out); n > 0 && out[n-1].Role == ai.RoleTool {
				out[n-1].Content = append(out[n-1].Content, p)
				continue
			}
			out = append(out, ai.NewMessage(ai.RoleTool, nil, p))
		}
	}
	return out, nil
}

// decode is s as JSON when it is JSON, else s itself: tool arguments and
// outputs travel as text in AG-UI and as values in Genkit.
func decode(s string) any {
	var v any
	if json.Unmarshal([]byte(s), &v) == nil {
		return v
	}
	return s
}

// userParts converts a user message's content: text, and media given by
// URL or as base64 data (sent as a data URL).
func userParts(m *agui.UserMessage) ([]*ai.Part, error) {
	if !m.Content.IsParts() {
		return []*ai.Part{ai.NewTextPart(m.Content.Text)}, nil
	}
	parts := make([]*ai.Part, 0, len(m.Content.Parts))
	for _, p := range m.Content.Parts {
		switch {
		case p.Type == agui.PartText:
			parts = append(parts, ai.NewTextPart(p.Text))
		case p.Source != nil && p.Source.Type == agui.SourceURL:
			parts = append(parts, ai.NewMediaPart(p.Source.MimeType, p.Source.Value))
		case p.Source != nil && p.Source.Type == agui.SourceData:
			parts = append(parts, ai.NewMediaPart(p.Source.MimeType, "data:"+p.Source.MimeType+";base64,"+p.Source.Value))
		default:
			return nil, agui.NewError(loop.CodeUnsupportedContent, fmt.Sprintf("genkit: message %s: %s part: parts must be text, a URL or base64 data", m.ID, p.Type))
		}
	}
	return parts, nil
}
