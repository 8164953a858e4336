package core

import (
	"errors"
	"net/http"
	"os"
	"time"

	"github.com/agui-go/agui"
)

// DefaultReadTimeout is how long a [Handler] waits for a request's body
// unless [WithReadTimeout] says otherwise.
const DefaultReadTimeout = 30 * time.Second

// CodeRequestTimeout is the code of the 408 a client gets when its body
// does not arrive within the read timeout.
const CodeRequestTimeout agui.Code = "REQUEST_TIMEOUT"

// WithReadTimeout bounds the time a [Handler] waits for a request's body
// (default [DefaultReadTimeout]; 0 waits forever). A client that stalls
// mid-upload gets a 408 once it passes, instead of holding the request,
// its buffer and a graceful shutdown indefinitely. The deadline is set on
// the connection when reading starts and cleared when the body is read,
// so it never cuts the stream that follows; it needs a ResponseWriter
// that supports read deadlines (net/http's does).
func WithReadTimeout(d time.Duration) HandlerOption {
	return handlerOption(func(c *handlerConfig) { c.readTimeout = d })
}

// readDeadline sets w's read deadline readTimeout ahead and reports
// whether it did: if so, the caller clears it once the body has been read
// whole (clearReadDeadline).
func (ir *InputReader) readDeadline(w http.ResponseWriter) bool {
	return ir.cfg.readTimeout > 0 && http.NewResponseController(w).SetReadDeadline(time.Now().Add(ir.cfg.readTimeout)) == nil
}

// clearReadDeadline clears the read deadline readDeadline set.
func clearReadDeadline(w http.ResponseWriter) {
	_ = http.NewResponseController(w).SetReadDeadline(time.Time{})
}

// timeoutError maps a body read that hit the read deadline to a 408.
func timeoutError(err error) error {
	var re *RequestError
	if errors.As(err, &re) && errors.Is(re.cause, os.ErrDeadlineExceeded) {
		return &RequestError{Status: http.StatusRequestTimeout, Code: CodeRequestTimeout,
			Message: "the request body did not arrive in time"}
	}
	return err
}

// cutOnShutdown registers w's body read with the handler's gate, if any,
// so that the gate's Shutdown ends it by moving the read deadline to
// now; the returned function unregisters it.
func (ir *InputReader) cutOnShutdown(w http.ResponseWriter) (done func()) {
	g := ir.cfg.gate
	if g == nil {
		return func() {}
	}
	rc := http.NewResponseController(w)
	return g.reads.add(func() { _ = rc.SetReadDeadline(time.Now()) })
}
