package eino

import (
	"fmt"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
	"github.com/cloudwego/eino/schema"
)

// messages converts an AG-UI transcript to eino messages: system and
// developer messages to system messages, user, assistant and tool messages
// to theirs. Reasoning and activity messages are the client's record, not
// the model's, and are left out. A content part eino cannot carry (a file
// handle source, a part without a source) fails with
// loop.CodeUnsupportedContent rather than being dropped.
func messages(in []agui.Message) ([]*schema.Message, error) {
	out := make([]*schema.Message, 0, len(in))
	for _, m := range in {
		em, err := message(m)
		if err != nil {
			return nil, err
		}
		if em != nil {
			out = append(out, em)
		}
	}
	return out, nil
}

// message converts one message; nil means left out.
func message(m agui.Message) (*schema.Message, error) {
	switch m := m.(type) {
	case *agui.SystemMessage:
		return schema.SystemMessage(m.Content), nil
	case *agui.DeveloperMessage:
		return schema.SystemMessage(m.Content), nil
	case *agui.UserMessage:
		um := &schema.Message{Role: schema.User, Name: m.Name}
		if !m.Content.IsParts() {
			um.Content = m.Content.Text
			return um, nil
		}
		for _, p := range m.Content.Parts {
			ep, err := inputPart(m.ID, p)
			if err != nil {
				return nil, err
			}
			um.UserInputMultiContent = append(um.UserInputMultiContent, ep)
		}
		return um, nil
	case *agui.AssistantMessage:
		am := &schema.Message{Role: schema.Assistant, Content: m.Content, Name: m.Name}
		for i, c := range m.ToolCalls {
			am.ToolCalls = append(am.ToolCalls, schema.ToolCall{
				Index:    new(i),
				ID:       c.ID,
				Type:     "function",
				Function: schema.FunctionCall{Name: c.Function.Name, Arguments: c.Function.Arguments},
			})
		}
		return am, nil
	case *agui.ToolMessage:
		text := m.Content.String()
		if m.Error != "" && text == "" {
			text = m.Error
		}
		return schema.ToolMessage(text, m.ToolCallID), nil
	}
	return nil, nil
}

// inputPart converts one content part of a user message.
func inputPart(msgID string, p agui.ContentPart) (schema.MessageInputPart, error) {
	if p.Type == agui.PartText {
		return schema.MessageInputPart{Type: schema.ChatMessagePartTypeText, Text: p.Text}, nil
	}
	s := p.Source
	if s == nil || (s.Type != agui.SourceURL && s.Type != agui.SourceData) {
		return schema.MessageInputPart{}, agui.NewError(loop.CodeUnsupportedContent,
			fmt.Sprintf("eino: message %s: a %s part needs a url or data source", msgID, p.Type))
	}
	common := schema.MessagePartCommon{MIMEType: s.MimeType}
	if s.Type == agui.SourceURL {
		common.URL = new(s.Value)
	} else {
		common.Base64Data = new(s.Value)
	}
	switch p.Type {
	case agui.PartImage:
		return schema.MessageInputPart{Type: schema.ChatMessagePartTypeImageURL, Image: &schema.MessageInputImage{MessagePartCommon: common}}, nil
	case agui.PartAudio:
		return schema.MessageInputPart{Type: schema.ChatMessagePartTypeAudioURL, Audio: &schema.MessageInputAudio{MessagePartCommon: common}}, nil
	case agui.PartVideo:
		return schema.MessageInputPart{Type: schema.ChatMessagePartTypeVideoURL, Video: &schema.MessageInputVideo{MessagePartCommon: common}}, nil
	case agui.PartDocument:
		return schema.MessageInputPart{Type: schema.ChatMessagePartTypeFileURL, File: &schema.MessageInputFile{MessagePartCommon: common}}, nil
	}
	return schema.MessageInputPart{}, agui.NewError(loop.CodeUnsupportedContent,
		fmt.Sprintf("eino: message %s: unknown part type %q", msgID, p.Type))
}
