package anthropic

import (
	"encoding/base64"
	"fmt"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
	sdk "github.com/anthropics/anthropic-sdk-go/v2"
)

// unsupported is the coded error of a content part the Messages API
// cannot take.
func unsupported(where string, p agui.ContentPart, why string) error {
	src := ""
	if p.Source != nil {
		src = fmt.Sprintf(" (%s source", p.Source.Type)
		if p.Source.MimeType != "" {
			src += ", " + p.Source.MimeType
		}
		src += ")"
	}
	return agui.NewError(loop.CodeUnsupportedContent, fmt.Sprintf("anthropic: %s: %s part%s: %s", where, p.Type, src, why))
}

// userBlocks converts a user message's content: text, and image and
// document parts as image and document blocks. Audio and video parts, and
// sources the API cannot read, fail with loop.CodeUnsupportedContent.
func userBlocks(where string, c agui.Content) ([]sdk.ContentBlockParamUnion, error) {
	if !c.IsParts() {
		if c.Text == "" {
			return nil, nil
		}
		return []sdk.ContentBlockParamUnion{sdk.NewTextBlock(c.Text)}, nil
	}
	var out []sdk.ContentBlockParamUnion
	for _, p := range c.Parts {
		switch p.Type {
		case agui.PartText:
			if p.Text != "" {
				out = append(out, sdk.NewTextBlock(p.Text))
			}
		case agui.PartImage:
			img, err := image(where, p)
			if err != nil {
				return nil, err
			}
			out = append(out, sdk.ContentBlockParamUnion{OfImage: img})
		case agui.PartDocument:
			doc, err := document(where, p)
			if err != nil {
				return nil, err
			}
			out = append(out, sdk.ContentBlockParamUnion{OfDocument: doc})
		default:
			return nil, unsupported(where, p, "the Messages API takes text, images and documents only")
		}
	}
	return out, nil
}

// toolResultContent converts a tool result's content: text, images and
// documents, as user content.
func toolResultContent(where string, c agui.Content) ([]sdk.ToolResultBlockParamContentUnion, error) {
	blocks, err := userBlocks(where, c)
	if err != nil {
		return nil, err
	}
	out := make([]sdk.ToolResultBlockParamContentUnion, 0, len(blocks))
	for _, b := range blocks {
		out = append(out, sdk.ToolResultBlockParamContentUnion{OfText: b.OfText, OfImage: b.OfImage, OfDocument: b.OfDocument})
	}
	return out, nil
}

// image converts an image part: base64 data (JPEG, PNG, GIF or WebP), a
// URL, or an Anthropic file id.
func image(where string, p agui.ContentPart) (*sdk.ImageBlockParam, error) {
	s := p.Source
	if s == nil {
		return nil, unsupported(where, p, "no source")
	}
	var b sdk.ImageBlockParam
	switch s.Type {
	case agui.SourceData:
		switch mt := sdk.Base64ImageSourceMediaType(s.MimeType); mt {
		case sdk.Base64ImageSourceMediaTypeImageJPEG, sdk.Base64ImageSourceMediaTypeImagePNG,
			sdk.Base64ImageSourceMediaTypeImageGIF, sdk.Base64ImageSourceMediaTypeImageWebP:
			b.Source.OfBase64 = &sdk.Base64ImageSourceParam{Data: s.Value, MediaType: mt}
		default:
			return nil, unsupported(where, p, "images must be JPEG, PNG, GIF or WebP")
		}
	case agui.SourceURL:
		b.Source.OfURL = &sdk.URLImageSourceParam{URL: s.Value}
	case agui.SourceFile:
		if !ours(s) {
			return nil, unsupported(where, p, "a file of provider "+s.Provider)
		}
		b.Source.OfFile = &sdk.FileImageSourceParam{FileID: s.Value}
	default:
		return nil, unsupported(where, p, "unknown source type")
	}
	return &b, nil
}

// document converts a document part: base64 PDF or plain text, a PDF URL,
// or an Anthropic file id.
func document(where string, p agui.ContentPart) (*sdk.DocumentBlockParam, error) {
	s := p.Source
	if s == nil {
		return nil, unsupported(where, p, "no source")
	}
	var b sdk.DocumentBlockParam
	switch s.Type {
	case agui.SourceData:
		switch s.MimeType {
		case "application/pdf":
			b.Source.OfBase64 = &sdk.Base64PDFSourceParam{Data: s.Value}
		case "text/plain":
			text, err := base64.StdEncoding.DecodeString(s.Value)
			if err != nil {
				return nil, unsupported(where, p, "the data is not valid base64")
			}
			b.Source.OfText = &sdk.PlainTextSourceParam{Data: string(text)}
		default:
			return nil, unsupported(where, p, "documents must be PDF or plain text")
		}
	case agui.SourceURL:
		if s.MimeType != "" && s.MimeType != "application/pdf" {
			return nil, unsupported(where, p, "document URLs must be PDF")
		}
		b.Source.OfURL = &sdk.URLPDFSourceParam{URL: s.Value}
	case agui.SourceFile:
		if !ours(s) {
			return nil, unsupported(where, p, "a file of provider "+s.Provider)
		}
		b.Source.OfFile = &sdk.FileDocumentSourceParam{FileID: s.Value}
	default:
		return nil, unsupported(where, p, "unknown source type")
	}
	return &b, nil
}

// ours reports whether a file source names an Anthropic file.
func ours(s *agui.PartSource) bool { return s.Provider == "" || s.Provider == "anthropic" }
