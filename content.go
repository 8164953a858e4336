package agui

import "strings"

// Content is the content of a user or tool message and of a
// TOOL_CALL_RESULT: either a string or an array of content parts. It is the
// array form exactly when Parts is non-nil (an empty non-nil slice encodes
// as []).
type Content struct {
	Text  string
	Parts []ContentPart
}

// TextContent returns string content.
func TextContent(s string) Content { return Content{Text: s} }

// PartsContent returns content in the array form.
func PartsContent(parts ...ContentPart) Content {
	if parts == nil {
		parts = []ContentPart{}
	}
	return Content{Parts: parts}
}

// IsParts reports whether c is in the array form.
func (c Content) IsParts() bool { return c.Parts != nil }

// String flattens c to text: the string form as it is, or the text of the
// text parts joined with newlines (media parts are dropped), as the
// official client's contentToText does.
func (c Content) String() string {
	if c.Parts == nil {
		return c.Text
	}
	var b strings.Builder
	first := true
	for _, p := range c.Parts {
		if p.Type != PartText {
			continue
		}
		if !first {
			b.WriteByte('\n')
		}
		first = false
		b.WriteString(p.Text)
	}
	return b.String()
}

// PartType names a content part's kind.
type PartType string

// The content part types of AG-UI 1.0.
const (
	PartText     PartType = "text"
	PartImage    PartType = "image"
	PartAudio    PartType = "audio"
	PartVideo    PartType = "video"
	PartDocument PartType = "document"
)

// ContentPart is one part of array content: text (Text set) or media
// (Source set).
type ContentPart struct {
	Type PartType
	// ID is reserved by the protocol; optional.
	ID   string
	Text string
	// Source is where a media part's bytes are; required for media parts.
	Source *PartSource
	// Metadata is any JSON except null; nil omits it.
	Metadata any
}

// TextPart returns a text content part.
func TextPart(text string) ContentPart { return ContentPart{Type: PartText, Text: text} }

// SourceType names where a media part's bytes come from.
type SourceType string

// The part source types of AG-UI 1.0.
const (
	SourceData SourceType = "data"
	SourceURL  SourceType = "url"
	SourceFile SourceType = "file"
)

// PartSource locates a media part's bytes.
type PartSource struct {
	Type SourceType
	// Value is base64 data, a URL or a provider file handle.
	Value string
	// MimeType is required for data sources, optional otherwise.
	MimeType string
	// Provider is the lowercase vendor id of a file source; optional.
	Provider string
}
