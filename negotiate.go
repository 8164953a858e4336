package agui

import "strings"

// ProtoContentType is the media type of the AG-UI protobuf framing. The
// official client switches to its protobuf parser only when a response's
// Content-Type is exactly this string, without parameters.
const ProtoContentType = "application/vnd.ag-ui.event+proto"

// Format is the framing of an event stream on the wire. The zero value is
// [FormatSSE]. A Format is a plain value, safe to share.
type Format int

// The two framings of AG-UI 1.0.
const (
	// FormatSSE frames each event as "data: <JSON>\n\n" (text/event-stream).
	FormatSSE Format = iota
	// FormatProto frames each event as a 4-byte big-endian length and an
	// ag_ui.Event protobuf message ([ProtoContentType]).
	FormatProto
)

// Negotiate picks the framing for a request's Accept header (all of its
// values joined with commas). It is a pure function of the header.
//
// Protobuf is chosen only when the header lists [ProtoContentType] itself
// with a quality above zero, and that quality is at least the one it gives
// text/event-stream (through text/event-stream, text/* or */*, the most
// specific match counting). A tie goes to protobuf, because the client
// named it explicitly. Everything else is SSE: no header, an empty one,
// wildcards alone, and any header that does not parse. When the type is
// listed more than once, its highest quality counts.
//
// This deliberately differs from the TypeScript encoder, which answers
// protobuf whenever the header merely admits it, so "*/*" and
// "application/*" get protobuf there. A browser, curl or any generic HTTP
// client sends "*/*" and cannot read length-prefixed protobuf; worse, a
// 0.0.x client that does speak protobuf decodes a cancelled RUN_FINISHED
// as success, because its schema has no cancelled outcome (AG-UI 1.0,
// docs.ag-ui.com). SSE is what every AG-UI client reads, so a client
// gets protobuf only when it asks for it by name.
//
// Negotiate sees only the header. A handler should still answer SSE to an
// input without protocolVersion: such a consumer predates 1.0, and its
// protobuf decoder knows none of the events 1.0 added.
func Negotiate(accept string) Format {
	protoQ, sseQ, ok := acceptQualities(accept)
	if !ok || protoQ <= 0 || protoQ < sseQ {
		return FormatSSE
	}
	return FormatProto
}

// ContentType is the Content-Type header value for f.
func (f Format) ContentType() string {
	if f == FormatProto {
		return ProtoContentType
	}
	return SSEContentType
}

// String returns "proto" or "sse".
func (f Format) String() string {
	if f == FormatProto {
		return "proto"
	}
	return "sse"
}

// AppendFrame appends ev framed as f: [AppendProto] for [FormatProto],
// [AppendSSE] otherwise. Errors and limits are theirs.
func (f Format) AppendFrame(dst []byte, ev Event) ([]byte, error) {
	if f == FormatProto {
		return AppendProto(dst, ev)
	}
	return AppendSSE(dst, ev)
}

// acceptQualities returns, in thousandths, the quality the Accept header
// gives ProtoContentType when listed explicitly (-1 if it is not) and the
// quality it gives text/event-stream. ok is false when the header does not
// parse.
func acceptQualities(accept string) (protoQ, sseQ int, ok bool) {
	protoQ, sseQ = -1, 0
	sseRank := 0 // 0 none, 1 */*, 2 text/*, 3 text/event-stream
	for elem := range splitOutsideQuotes(accept, ',') {
		elem = strings.TrimSpace(elem)
		if elem == "" {
			continue // the list syntax allows empty elements
		}
		typ, sub, q, valid := parseMediaRange(elem)
		if !valid {
			return 0, 0, false
		}
		rank := 0
		switch {
		case typ == "application" && sub == "vnd.ag-ui.event+proto":
			protoQ = max(protoQ, q)
		case typ == "text" && sub == "event-stream":
			rank = 3
		case typ == "text" && sub == "*":
			rank = 2
		case typ == "*" && sub == "*":
			rank = 1
		}
		if rank > sseRank {
			sseRank, sseQ = rank, q
		} else if rank != 0 && rank == sseRank {
			sseQ = max(sseQ, q)
		}
	}
	return protoQ, sseQ, true
}

// parseMediaRange parses `type/subtype *( ; name=value )` and returns the
// lowercased type and subtype and the q parameter in thousandths (1000 when
// absent).
func parseMediaRange(s string) (typ, sub string, q int, ok bool) {
	q = 1000
	first := true
	seenQ := false
	for part := range splitOutsideQuotes(s, ';') {
		part = strings.TrimSpace(part)
		if first {
			first = false
			t, st, found := strings.Cut(strings.ToLower(part), "/")
			if !found || !isToken(t) || !isToken(st) || (t == "*" && st != "*") {
				return "", "", 0, false
			}
			typ, sub = t, st
			continue
		}
		name, value, found := strings.Cut(part, "=")
		name = strings.TrimSpace(name)
		value = strings.TrimSpace(value)
		if !found || !isToken(name) || value == "" {
			return "", "", 0, false
		}
		// Parameters after q are accept extensions, not the media type's;
		// only the first q is the weight.
		if strings.EqualFold(name, "q") && !seenQ {
			seenQ = true
			if q, ok = parseQValue(value); !ok {
				return "", "", 0, false
			}
		}
	}
	return typ, sub, q, !first
}

// parseQValue parses an RFC 9110 qvalue ("0", "0.5", "1.000", at most three
// decimals) into thousandths.
func parseQValue(s string) (int, bool) {
	if s == "" || len(s) > 5 || (s[0] != '0' && s[0] != '1') {
		return 0, false
	}
	whole := int(s[0]-'0') * 1000
	if len(s) == 1 {
		return whole, true
	}
	if s[1] != '.' {
		return 0, false
	}
	frac, scale := 0, 100
	for i := 2; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		frac += int(c-'0') * scale
		scale /= 10
	}
	if whole == 1000 && frac != 0 {
		return 0, false
	}
	return whole + frac, true
}

// isToken reports whether s is a non-empty RFC 9110 token.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// splitOutsideQuotes yields the pieces of s between separators that are not
// inside a quoted string, so that a parameter value like "a,b" stays whole.
func splitOutsideQuotes(s string, sep byte) func(yield func(string) bool) {
	return func(yield func(string) bool) {
		start, quoted := 0, false
		for i := 0; i < len(s); i++ {
			switch c := s[i]; {
			case quoted && c == '\\':
				i++ // the escaped character cannot end the quote
			case c == '"':
				quoted = !quoted
			case !quoted && c == sep:
				if !yield(s[start:i]) {
					return
				}
				start = i + 1
			}
		}
		yield(s[start:])
	}
}
