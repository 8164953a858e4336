package anthropic

import (
	"bytes"
	"fmt"
	"net/http"

	"github.com/agui-go/agui/internal/sse"
	sdk "github.com/anthropics/anthropic-sdk-go/v2"
)

// eventReader reads a message's events as the SDK's ssestream.Stream
// does: ping events and events without a type or data are passed over,
// an error event fails the stream with an [*sdk.Error] carrying the
// response, and each other event is decoded into an [event]. It reads
// with [sse.Reader] and calls [event.UnmarshalJSON] directly, where the
// SDK's decoder allocates a buffer and a string per event and
// encoding/json checks each event's syntax before UnmarshalJSON checks it
// again: on the token path's profile the two were about a third of the
// provider's CPU. It is not safe for concurrent use.
type eventReader struct {
	r    *sse.Reader
	resp *http.Response
	cur  event
	err  error
}

// Next reads the next event; false means the stream ended or failed.
func (e *eventReader) Next() bool {
	if e.err != nil {
		return false
	}
	for e.r.Next() {
		data := e.r.Data()
		switch string(e.r.Type()) {
		case "", "ping":
			continue
		case "error":
			e.err = e.apiError(bytes.TrimSuffix(data, []byte("\n")))
			return false
		}
		if len(bytes.TrimSuffix(data, []byte("\n"))) == 0 {
			continue
		}
		e.cur = event{}
		if e.err = e.cur.UnmarshalJSON(data); e.err != nil {
			return false
		}
		return true
	}
	e.err = e.r.Err()
	return false
}

// apiError is the error of an error event: the API's error, with the
// response's status and ids, as the SDK builds it.
func (e *eventReader) apiError(data []byte) error {
	ae := &sdk.Error{
		Request:     e.resp.Request,
		Response:    e.resp,
		StatusCode:  e.resp.StatusCode,
		RequestID:   e.resp.Header.Get("request-id"),
		WorkspaceID: e.resp.Header.Get("anthropic-workspace-id"),
	}
	if ae.UnmarshalJSON(data) != nil {
		return fmt.Errorf("received error while streaming: %s", data)
	}
	return ae
}

// newEventReader returns a reader of resp's events; resp has a body.
func newEventReader(resp *http.Response) *eventReader {
	return &eventReader{r: sse.NewReader(resp.Body), resp: resp}
}

// Current is the event Next read, valid until the next call to Next: a
// pointer, as the event is some 300 bytes.
func (e *eventReader) Current() *event { return &e.cur }

// Err is the error that ended the stream, nil at its end.
func (e *eventReader) Err() error { return e.err }

// Close closes the response body.
func (e *eventReader) Close() error { return e.resp.Body.Close() }
