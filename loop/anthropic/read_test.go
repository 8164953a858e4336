package anthropic

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/agui-go/agui/loop"
	sdk "github.com/anthropics/anthropic-sdk-go/v2"
)

// Pings, comments and events without data are passed over; an error
// event carries the response's status and request id, as the SDK's
// stream reports it.
func TestReadErrorEventCarriesResponse(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("request-id", "req_1")
		w.Write([]byte(": hello\n\nevent: ping\ndata: {\"type\":\"ping\"}\n\nevent: content_block_delta\n\n" +
			"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"ok\"}}\n\n" +
			"event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"slow down\"}}\n\n"))
	})
	ds, err := collect(t, newProvider(t, s), loop.ModelRequest{})
	if len(ds) != 1 || ds[0].Text != "ok" {
		t.Fatalf("deltas %+v", ds)
	}
	var se *sdk.Error
	var ae *APIError
	if !errors.As(err, &ae) || !errors.As(err, &se) || ae.Type != "rate_limit_error" || se.StatusCode != http.StatusOK || se.RequestID != "req_1" || se.Response == nil {
		t.Fatalf("err %v (%+v)", err, se)
	}
}

// A connection cut mid-stream fails the stream after the deltas that
// arrived whole.
func TestReadBrokenConnection(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"ok\"}}\n\nevent: content_bl"))
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler) // cuts the chunked body short
	})
	ds, err := collect(t, newProvider(t, s), loop.ModelRequest{})
	var se *streamError
	if err == nil || errors.As(err, &se) || len(ds) != 1 || ds[0].Text != "ok" {
		t.Fatalf("deltas %+v, err %v", ds, err)
	}
}

// An error event whose data is not the API's error still fails the
// stream, with the data in the message, as the SDK's stream does.
func TestReadErrorEventUnreadable(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte("event: error\ndata: oops\n\n"))
	})
	_, err := collect(t, newProvider(t, s), loop.ModelRequest{})
	var ae *APIError
	if !errors.As(err, &ae) || ae.StatusCode != http.StatusOK || !strings.Contains(err.Error(), "oops") {
		t.Fatalf("err %v", err)
	}
}
