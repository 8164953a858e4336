package agui

import "strconv"

// SSEContentType is the Content-Type of an AG-UI event stream. The client
// requires it exactly, without parameters.
const SSEContentType = "text/event-stream"

// MaxEventSize is the largest event, in bytes of JSON, that [AppendSSE]
// frames. The 1.0 client's stream buffer is bounded, so a larger event would
// break the run on the client instead of failing cleanly on the server.
const MaxEventSize = 10 << 20

// SSEHeartbeat is an SSE comment frame. Clients ignore it; writing it
// keeps idle connections from being closed by proxies.
const SSEHeartbeat = ": ping\n\n"

// AppendSSE appends ev as one SSE frame, "data: <compact JSON>\n\n", to
// dst and returns the extended buffer. The JSON is always a single line, so
// one data line carries it; line endings are LF only.
//
// On error dst is returned as it was: a nil event or an opaque value that
// does not encode, and an event whose JSON exceeds [MaxEventSize], give a
// SERIALIZATION [*Error]. With a buffer of enough capacity, framing a
// TEXT_MESSAGE_CONTENT or TOOL_CALL_ARGS event does not allocate.
//
// AppendSSE is safe for concurrent use on distinct buffers.
func AppendSSE(dst []byte, ev Event) ([]byte, error) {
	if ev == nil {
		return dst, NewError(CodeSerialization, "cannot encode a nil event")
	}
	out := append(dst, "data: "...)
	start := len(out)
	out, err := ev.AppendJSON(out)
	if err != nil {
		return dst, err
	}
	if n := len(out) - start; n > MaxEventSize {
		return dst, NewError(CodeSerialization, "cannot send "+string(ev.Type())+": its JSON is "+
			strconv.Itoa(n)+" bytes, over the "+strconv.Itoa(MaxEventSize)+"-byte event limit")
	}
	return append(out, '\n', '\n'), nil
}
