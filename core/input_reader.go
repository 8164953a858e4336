package core

import (
	"errors"
	"net/http"
	"sync"

	"github.com/agui-go/agui"
)

// InputReader reads a route's run requests as its [Handler] does, without
// a Handler: the principal hook ([WithPrincipal]), the body limit
// ([WithMaxBodyBytes]), the read and write timeouts, the input limits
// ([WithInputLimits]), strictness ([WithStrictInput]), a [Gate]'s shutdown
// cutting the read, and refusals answered as JSON, logged and passed to
// the refusal hook. Middleware that must see the input before the run
// (ginagui.Input, a thread ownership check) reads it with the route's own
// options this way, and puts it on the request's context
// ([ContextWithInput]) for the route's Handler to run without reading the
// body again. A [Handler] reads with its own ([Handler.InputReader]).
//
// An InputReader holds only its settings: it is safe for concurrent use.
type InputReader struct {
	cfg handlerConfig
	// bodies keeps request body buffers (*[]byte) for the next requests:
	// DecodeInput copies whatever it keeps, so a body's buffer is free
	// once decoded. The profile of a 1,000-message thread showed reading
	// the body as half the bytes a request allocated, and the collector
	// as a quarter of its CPU (issue 26).
	bodies sync.Pool
}

// maxPooledBody bounds the body buffers an [InputReader] keeps: a rare
// huge body is left to the collector rather than held.
const maxPooledBody = 4 << 20

// NewInputReader returns the [InputReader] of a route with opts, the same
// list given to the route's [NewHandler]: run options in it are checked and
// otherwise ignored. It fails when an option is out of range, as
// NewHandler does.
func NewInputReader(opts ...HandlerOption) (*InputReader, error) {
	cfg, err := newHandlerConfig(opts)
	if err != nil {
		return nil, err
	}
	return &InputReader{cfg: cfg}, nil
}

// Read checks r and decodes its body, writing nothing: a POST (405
// otherwise) with Content-Type application/json (415), a body within the
// body limit (413) that arrives within the read timeout (408), well-formed
// JSON (400), and a valid RunAgentInput of protocol major version 1 or of
// no version (422), within the input limits (413 or 422). On a route with
// a [Gate], the gate's Shutdown cuts the read and the request gets 503. A
// refusal is returned as a [*RequestError], for [InputReader.Refuse]. The
// whole body is read before Read returns, so an HTTP/1 server can stream
// the response afterwards.
//
// Before reading, Read moves the connection's write deadline as every
// write of a stream does (see [WithWriteTimeout]): a server's
// WriteTimeout runs from the request's headers, and a slow upload must not
// use it up before the answer starts.
func (ir *InputReader) Read(w http.ResponseWriter, r *http.Request) (*agui.RunAgentInput, error) {
	ir.extendDeadline(w)
	deadline := ir.readDeadline(w)
	done := ir.cutOnShutdown(w)
	buf, _ := ir.bodies.Get().(*[]byte)
	if buf == nil {
		buf = new([]byte)
	}
	in, err := readInput(w, r, ir.cfg.maxBodyBytes, buf, ir.cfg.decode...)
	if c := cap(*buf); c > 0 && c <= maxPooledBody {
		*buf = (*buf)[:0]
		ir.bodies.Put(buf)
	}
	done()
	if err != nil {
		// The deadline stays: net/http drains an unread body after the
		// handler, and a stalled client must not hold that drain either.
		err = timeoutError(err)
		if re := (*RequestError)(nil); errors.As(err, &re) && re.Code == CodeRequestTimeout {
			if g := ir.cfg.gate; g != nil && g.reads.shut() {
				return nil, errShutting()
			}
		}
		return nil, err
	}
	if deadline {
		clearReadDeadline(w)
	}
	if err := ir.cfg.limits.check(in); err != nil {
		return nil, err
	}
	return in, nil
}
