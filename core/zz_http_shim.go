package core

// TEMPORARY (branch http): stand-ins for names the proto branch is writing
// (Format, Negotiate). Deleted when it is merged.

import "strings"

// Format is a negotiated stream encoding.
type Format int

// The stream encodings.
const (
	FormatSSE Format = iota
	FormatProto
)

// Negotiate picks the encoding for an Accept header.
func Negotiate(accept string) Format {
	if strings.Contains(accept, "application/vnd.ag-ui.event+proto") {
		return FormatProto
	}
	return FormatSSE
}

// ContentType is the media type of f.
func (f Format) ContentType() string {
	if f == FormatProto {
		return "application/vnd.ag-ui.event+proto"
	}
	return "text/event-stream"
}

// AppendFrame appends ev framed in f.
func (f Format) AppendFrame(dst []byte, ev Event) ([]byte, error) {
	if f == FormatProto {
		dst = append(dst, 0, 0, 0, 0)
		return ev.AppendJSON(dst)
	}
	return AppendSSE(dst, ev)
}
