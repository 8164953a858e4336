package core

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"time"

	"github.com/agui-go/agui"
)

// RequestError is a run request refused before its stream started. It is
// answered with Status and the JSON body {"error": Message, "code": Code,
// "field": Field} (field omitted when empty). Values are immutable.
type RequestError struct {
	Status int
	Code   agui.Code
	// Message says what is wrong, naming the field when there is one.
	Message string
	// Field is the JSON path of the offending input value, if any.
	Field string
	// RetryAfter, when positive, is sent as a Retry-After header, rounded
	// up to whole seconds: how soon a refusal for want of capacity (a 429
	// or 503) is worth retrying (default 0: no header).
	RetryAfter time.Duration
	// cause is the I/O error behind a failed body read, for Unwrap.
	cause error
}

// The codes of the refusals of [ReadInput] and [Handler]. A [RequestError]
// carries an [agui.Code], as RUN_ERROR does: one code space, whether a
// failure is answered before the stream or reported in it.
const (
	CodeMethodNotAllowed     agui.Code = "METHOD_NOT_ALLOWED"
	CodeUnsupportedMediaType agui.Code = "UNSUPPORTED_MEDIA_TYPE"
	CodeBodyTooLarge         agui.Code = "BODY_TOO_LARGE"
	CodeMalformedInput       agui.Code = "MALFORMED_INPUT"
	CodeInvalidInput         agui.Code = "INVALID_INPUT"
	// CodeUnavailable is the 503 of a server that cannot take the request
	// now: it is shutting down, or an [Admitter] refused without a code
	// of its own.
	CodeUnavailable agui.Code = "UNAVAILABLE"
	// CodeUnauthenticated is the 401 answered, before any stream, to a
	// request whose principal hook ([WithPrincipal]) failed: the route
	// has owners, and this caller could not be named.
	CodeUnauthenticated agui.Code = "UNAUTHENTICATED"
	// CodeForbidden: the request's principal is not the owner of the run
	// or thread it names (a 403 before any stream, or the RUN_ERROR of a
	// run that reached a thread it does not own).
	CodeForbidden agui.Code = "FORBIDDEN"
)

// Error returns the message.
func (e *RequestError) Error() string { return e.Message }

// Unwrap returns the I/O error behind a failed body read, if any.
func (e *RequestError) Unwrap() error { return e.cause }

// WriteHTTP answers the request with e; a 405 says Allow: POST unless w
// already has an Allow header. It must be called before anything
// else is written to w, and nothing reads the request's body afterwards:
// WriteHTTP moves the connection's read deadline to now. A refusal is
// often written before the body is read (a failed principal hook, a
// wrong method), and net/http then reads up to 256 KiB of the unread body
// before it answers, to reuse the connection; a client that stalls its
// upload would hold that read, and with it a server's Shutdown, until its
// read timeout. With the deadline passed, the answer goes out at once and
// the connection is closed (Connection: close), the body read or not: the
// deadline would otherwise stay on the connection and cancel the next
// request on it as it starts.
func (e *RequestError) WriteHTTP(w http.ResponseWriter) {
	// Ignored where unsupported (a ResponseRecorder): then nothing drains.
	_ = http.NewResponseController(w).SetReadDeadline(time.Now())
	w.Header().Set("Connection", "close")
	body, _ := json.Marshal(struct {
		Error string `json:"error"`
		Code  string `json:"code"`
		Field string `json:"field,omitempty"`
	}{e.Message, string(e.Code), e.Field})
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	if e.Status == http.StatusMethodNotAllowed && h.Get("Allow") == "" {
		// A run route's; a route serving other methods sets its own.
		h.Set("Allow", http.MethodPost)
	}
	if e.RetryAfter > 0 {
		h.Set("Retry-After", retryAfterSeconds(e.RetryAfter))
	}
	w.WriteHeader(e.Status)
	_, _ = w.Write(append(body, '\n'))
}

// readInput checks a run request and decodes its body, writing nothing: a
// POST (405 otherwise) with Content-Type application/json (415), a body of
// at most maxBytes (413), well-formed JSON (400) and a valid RunAgentInput
// of protocol major version 1 or of no version (422). A refusal is
// returned as a [*RequestError]. The whole body is read before the function
// returns, so an HTTP/1 server can stream the response afterwards. opts
// are passed to DecodeInput. The body is read into *buf, which is left
// holding it (grown as needed) for the caller to reuse.
func readInput(w http.ResponseWriter, r *http.Request, maxBytes int64, buf *[]byte, opts ...agui.DecodeOption) (*agui.RunAgentInput, error) {
	if r.Method != http.MethodPost {
		return nil, &RequestError{Status: http.StatusMethodNotAllowed, Code: CodeMethodNotAllowed,
			Message: "a run is started with POST"}
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" && !isJSONMediaType(ct) {
		return nil, &RequestError{Status: http.StatusUnsupportedMediaType, Code: CodeUnsupportedMediaType,
			Message: "the body must be application/json"}
	}
	if r.ContentLength > maxBytes {
		// Refused before reading: no 100 Continue invites the upload.
		return nil, &RequestError{Status: http.StatusRequestEntityTooLarge, Code: CodeBodyTooLarge,
			Message: "the body is larger than " + strconv.FormatInt(maxBytes, 10) + " bytes"}
	}
	body, err := readBody(http.MaxBytesReader(w, r.Body, maxBytes), r.ContentLength, maxBytes, *buf)
	*buf = body
	if err != nil {
		if mbe := (*http.MaxBytesError)(nil); errors.As(err, &mbe) {
			return nil, &RequestError{Status: http.StatusRequestEntityTooLarge, Code: CodeBodyTooLarge,
				Message: "the body is larger than " + strconv.FormatInt(mbe.Limit, 10) + " bytes"}
		}
		return nil, &RequestError{Status: http.StatusBadRequest, Code: CodeMalformedInput,
			Message: "reading the body failed", cause: err}
	}
	in, err := agui.DecodeInput(body, opts...)
	if err != nil {
		return nil, inputRequestError(err)
	}
	return in, nil
}

// isJSONMediaType reports whether ct is application/json, with or
// without parameters. readInput asks it only for a Content-Type other
// than the exact "application/json" most clients send: parsing allocates
// a map of the parameters.
func isJSONMediaType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && mt == "application/json"
}

// maxInitialBody caps the buffer readBody allocates before any byte has
// arrived: a declared Content-Length is a claim, not bytes, and 300
// requests each declaring 8 MiB and sending one byte must not reserve
// 2.4 GB. A larger body grows the buffer as its bytes come in.
const maxInitialBody = 64 << 10

// readBody reads rd to its end as io.ReadAll does, into a buffer sized
// from the request's Content-Length when it is known (length < 0 when it
// is not) up to [maxInitialBody], so a small body costs a small buffer and
// a large one only what has arrived (at most twice that). It reads into
// buf when buf has room for that first size (a buffer of an earlier
// request; nil: none), so a pooled buffer costs nothing. A full buffer
// doubles, up to the declared length when it is known: append's growth of
// a large slice (about 1.25 times) allocated some 1.1 MB and copied most
// of it for a 300 KB thread of 1,000 messages, the largest allocation site
// of a long thread's request in the profile (issue 26).
func readBody(rd io.Reader, length, maxBytes int64, buf []byte) ([]byte, error) {
	size := 512
	known := length >= 0 && length < maxBytes
	if known {
		size = int(min(length, maxInitialBody)) + 1 // room for the read that returns io.EOF
	}
	if cap(buf) < size {
		buf = make([]byte, 0, size)
	}
	buf = buf[:0]
	for {
		if len(buf) == cap(buf) {
			grow := cap(buf)
			if known && int64(len(buf)) <= length {
				grow = int(min(int64(grow), length+1-int64(len(buf))))
			}
			// make and copy, not append, which rounds a large slice's
			// growth up by a quarter.
			nb := make([]byte, len(buf), len(buf)+max(grow, 512))
			copy(nb, buf)
			buf = nb
		}
		n, err := rd.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// inputRequestError maps a decode or input validation error to a
// RequestError: malformed JSON is a 400, anything else a 422.
func inputRequestError(err error) *RequestError {
	if ie := (*agui.InputError)(nil); errors.As(err, &ie) {
		if ie.Malformed {
			return &RequestError{Status: http.StatusBadRequest, Code: CodeMalformedInput, Field: ie.Field, Message: ie.Error()}
		}
		return &RequestError{Status: http.StatusUnprocessableEntity, Code: CodeInvalidInput, Field: ie.Field, Message: ie.Error()}
	}
	return &RequestError{Status: http.StatusUnprocessableEntity, Code: CodeInvalidInput, Message: err.Error()}
}

type inputKey struct{}

// ContextWithInput returns a copy of ctx carrying in. [Handler.Serve] puts
// the decoded input on the run's context this way, and streams an input
// already found there instead of reading the body again.
func ContextWithInput(ctx context.Context, in *agui.RunAgentInput) context.Context {
	return context.WithValue(ctx, inputKey{}, in)
}

// InputFrom returns the run input carried by ctx, if any.
func InputFrom(ctx context.Context) (*agui.RunAgentInput, bool) {
	in, ok := ctx.Value(inputKey{}).(*agui.RunAgentInput)
	return in, ok && in != nil
}
