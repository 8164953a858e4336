package openai

import (
	"fmt"
	"mime"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
	oai "github.com/openai/openai-go/v3"
)

// unsupported is the coded error of a content part the chat completions
// API cannot take.
func unsupported(where string, p agui.ContentPart, why string) error {
	src := ""
	if p.Source != nil {
		src = fmt.Sprintf(" (%s source", p.Source.Type)
		if p.Source.MimeType != "" {
			src += ", " + p.Source.MimeType
		}
		src += ")"
	}
	return agui.NewError(loop.CodeUnsupportedContent, fmt.Sprintf("openai: %s: %s part%s: %s", where, p.Type, src, why))
}

// userMessage converts a user message. Content parts map to the API's
// parts: text; images (a URL, or base64 data as a data URL) to image_url;
// documents (base64 data, or an OpenAI file id) to file; WAV and MP3
// audio data to input_audio. Video, image file ids, document URLs and
// other audio formats fail with loop.CodeUnsupportedContent.
func userMessage(m *agui.UserMessage) (oai.ChatCompletionMessageParamUnion, error) {
	if !m.Content.IsParts() {
		return oai.UserMessage(m.Content.Text), nil
	}
	where := "message " + m.ID
	parts := make([]oai.ChatCompletionContentPartUnionParam, 0, len(m.Content.Parts))
	for _, p := range m.Content.Parts {
		part, err := contentPart(where, p)
		if err != nil {
			return oai.ChatCompletionMessageParamUnion{}, err
		}
		parts = append(parts, part)
	}
	return oai.UserMessage(parts), nil
}

func contentPart(where string, p agui.ContentPart) (oai.ChatCompletionContentPartUnionParam, error) {
	if p.Type == agui.PartText {
		return oai.TextContentPart(p.Text), nil
	}
	s := p.Source
	if s == nil {
		return oai.ChatCompletionContentPartUnionParam{}, unsupported(where, p, "no source")
	}
	switch p.Type {
	case agui.PartImage:
		switch s.Type {
		case agui.SourceURL:
			return oai.ImageContentPart(oai.ChatCompletionContentPartImageImageURLParam{URL: s.Value}), nil
		case agui.SourceData:
			return oai.ImageContentPart(oai.ChatCompletionContentPartImageImageURLParam{URL: dataURL(s)}), nil
		}
		return oai.ChatCompletionContentPartUnionParam{}, unsupported(where, p, "images must be a URL or base64 data")
	case agui.PartDocument:
		switch {
		case s.Type == agui.SourceData:
			return oai.FileContentPart(oai.ChatCompletionContentPartFileFileParam{
				FileData: oai.String(dataURL(s)), Filename: oai.String(filename(p)),
			}), nil
		case s.Type == agui.SourceFile && (s.Provider == "" || s.Provider == "openai"):
			return oai.FileContentPart(oai.ChatCompletionContentPartFileFileParam{FileID: oai.String(s.Value)}), nil
		}
		return oai.ChatCompletionContentPartUnionParam{}, unsupported(where, p, "documents must be base64 data or an OpenAI file id")
	case agui.PartAudio:
		if s.Type == agui.SourceData {
			switch s.MimeType {
			case "audio/wav", "audio/x-wav", "audio/wave":
				return oai.InputAudioContentPart(oai.ChatCompletionContentPartInputAudioInputAudioParam{Data: s.Value, Format: "wav"}), nil
			case "audio/mpeg", "audio/mp3":
				return oai.InputAudioContentPart(oai.ChatCompletionContentPartInputAudioInputAudioParam{Data: s.Value, Format: "mp3"}), nil
			}
		}
		return oai.ChatCompletionContentPartUnionParam{}, unsupported(where, p, "audio must be WAV or MP3 base64 data")
	}
	return oai.ChatCompletionContentPartUnionParam{}, unsupported(where, p, "chat completions take text, images, documents and audio only")
}

// toolText returns a tool result's text. Chat completions take text
// results only, so a result with media parts fails with
// loop.CodeUnsupportedContent.
func toolText(m *agui.ToolMessage) (string, error) {
	for _, p := range m.Content.Parts {
		if p.Type != agui.PartText {
			return "", unsupported("result of call "+m.ToolCallID, p, "tool results take text only")
		}
	}
	return m.Content.String(), nil
}

// dataURL returns a data source as a data URL.
func dataURL(s *agui.PartSource) string {
	return "data:" + s.MimeType + ";base64," + s.Value
}

// filename is a document's name: its metadata's "filename" when set,
// otherwise "document" with the extension of its media type.
func filename(p agui.ContentPart) string {
	if md, ok := p.Metadata.(map[string]any); ok {
		if n, ok := md["filename"].(string); ok && n != "" {
			return n
		}
	}
	if exts, _ := mime.ExtensionsByType(p.Source.MimeType); len(exts) > 0 {
		return "document" + exts[0]
	}
	return "document"
}
