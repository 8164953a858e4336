package agui

import (
	"bytes"
	"strconv"
	"strings"
	"time"
)

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

// SSEFrame is one SSE frame with the fields a resumable stream needs
// beyond [AppendSSE]'s: an event id, which a client sends back as
// Last-Event-ID to resume, and the reconnection delay. A zero field is
// left out of the frame.
type SSEFrame struct {
	// ID is the frame's "id:" field; "" writes none. It may not contain
	// CR, LF or NUL, which would end the field or make clients ignore it.
	ID string
	// Retry is the "retry:" field, in whole milliseconds, that a client
	// waits before reconnecting; 0 or less writes none.
	Retry time.Duration
	// Data is one event's JSON, on one line (as [Event.AppendJSON] and a
	// run log store it); nil or empty writes no "data:" line, so a frame of
	// an id or a retry alone dispatches no event.
	Data []byte
}

// AppendSSEFrame appends f to dst as "id: ...\nretry: ...\ndata: ...\n\n",
// each field only when set, and returns the extended buffer; a frame with
// no field appends nothing. It is [AppendSSE] for data already encoded,
// with an id and a retry.
//
// On error dst is returned as it was: an ID with CR, LF or NUL, Data with
// CR or LF (the client would split it into lines), and Data over
// [MaxEventSize] give a SERIALIZATION [*Error].
func AppendSSEFrame(dst []byte, f SSEFrame) ([]byte, error) {
	// IndexByte is vectorised where ContainsAny walks byte by byte: a
	// log's follower frames every event it replays with this.
	if strings.IndexByte(f.ID, '\n') >= 0 || strings.IndexByte(f.ID, '\r') >= 0 || strings.IndexByte(f.ID, 0) >= 0 {
		return dst, NewError(CodeSerialization, "cannot frame an SSE id with CR, LF or NUL")
	}
	if bytes.IndexByte(f.Data, '\n') >= 0 || bytes.IndexByte(f.Data, '\r') >= 0 {
		return dst, NewError(CodeSerialization, "cannot frame SSE data of more than one line")
	}
	if n := len(f.Data); n > MaxEventSize {
		return dst, NewError(CodeSerialization, "cannot send an event of "+strconv.Itoa(n)+
			" bytes of JSON, over the "+strconv.Itoa(MaxEventSize)+"-byte event limit")
	}
	out := dst
	if f.ID != "" {
		out = append(out, "id: "...)
		out = append(out, f.ID...)
		out = append(out, '\n')
	}
	if f.Retry > 0 {
		out = append(out, "retry: "...)
		out = strconv.AppendInt(out, f.Retry.Milliseconds(), 10)
		out = append(out, '\n')
	}
	if len(f.Data) > 0 {
		out = append(out, "data: "...)
		out = append(out, f.Data...)
		out = append(out, '\n')
	}
	if len(out) == len(dst) {
		return dst, nil
	}
	return append(out, '\n'), nil
}
