package client

import (
	"context"
	"io"
	"mime"
	"net/http"
	"strconv"

	"github.com/agui-go/agui"
)

// pipeline is what one run's response goes through: decoding with the
// tolerance rules (decode.go), chunk expansion (chunk.go), the ordering
// verifier, the version check, and the reducer (view.go); and, on a
// resumable route, rejoining after a dropped connection (resume.go).
//
// A pipeline is not safe for concurrent use.
type pipeline struct {
	agent    *Agent
	view     *View
	legacy   legacy
	chunks   chunks
	verifier agui.Verifier
	// open is true between a RUN_STARTED and its terminal event; ended is
	// true once a terminal event has come and no run has started since.
	open, ended bool
	// buf is reused for each event's encoding (decode.go).
	buf []byte
}

// yielder receives the pipeline's output; false means stop.
type yielder = func(agui.Event, error) bool

// read yields the verified events of resp's body, and closes it.
func (p *pipeline) read(ctx context.Context, resp *http.Response, yield yielder) {
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if mt == agui.ProtoContentType {
		defer resp.Body.Close()
		for ev, err := range agui.ReadProto(resp.Body) {
			if err != nil {
				yield(nil, contextError(ctx, disconnected(err)))
				return
			}
			if !p.event(ev, yield) {
				return
			}
		}
		p.end(yield)
		return
	}
	p.readSSE(ctx, resp, yield)
}

// end reports a stream that ended before its run's terminal event: a
// truncated run, which must not pass for a finished one.
func (p *pipeline) end(yield yielder) {
	if !p.ended {
		yield(nil, agui.NewError(agui.CodeDisconnected, "client: the stream ended before the run's terminal event"))
	}
}

// sse reads one SSE body, skipping frames whose id is at or before
// cursor (a rejoin's replay of what was seen). It returns the new cursor,
// whether any frame moved it, whether to stop, and the read error, if any.
func (p *pipeline) sse(body io.Reader, cursor int64, yield yielder) (next int64, progressed, stop bool, err error) {
	r := agui.NewSSEReader(body)
	for {
		data, err := r.NextData()
		if err == io.EOF {
			return cursor, progressed, false, nil
		}
		if err != nil {
			return cursor, progressed, false, err
		}
		if id, ok := r.EventID(); ok {
			if n, err := strconv.ParseInt(id, 10, 64); err == nil {
				if n <= cursor {
					continue
				}
				cursor, progressed = n, true
			}
		}
		ev, err := p.decode(data)
		if err != nil {
			yield(nil, err)
			return cursor, progressed, true, nil
		}
		if ev != nil && !p.event(ev, yield) {
			return cursor, progressed, true, nil
		}
	}
}

// disconnected reports a body that broke off.
func disconnected(err error) error {
	if agui.CodeOf(err) == agui.CodeSerialization {
		return err
	}
	return &agui.Error{Code: agui.CodeDisconnected, Message: "client: the stream broke off: " + err.Error(), Err: err}
}

func (p *pipeline) warnf(t agui.EventType, msg string) {
	p.agent.cfg.warn(Warning{Event: t, Message: msg})
}

// event passes one decoded event through expansion, verification and the
// reducer, yielding what comes out; false means stop.
func (p *pipeline) event(ev agui.Event, yield yielder) bool {
	if !p.era(ev) {
		return true
	}
	evs, err := p.chunks.expand(ev)
	if err != nil {
		yield(nil, err)
		return false
	}
	for _, ev := range evs {
		if err := p.verifier.Observe(ev); err != nil {
			yield(nil, err)
			return false
		}
		switch e := ev.(type) {
		case *agui.RunStarted:
			p.open, p.ended = true, false
			p.checkVersion(e.ProtocolVersion)
		case *agui.RunFinished, *agui.RunError:
			p.open, p.ended = false, true
		}
		if p.view != nil {
			p.view.apply(ev, func(msg string) { p.warnf(ev.Type(), msg) })
		}
		if !yield(ev, nil) {
			return false
		}
	}
	return true
}

// checkVersion warns about a producer whose declared protocol version is
// newer than the client's, or that cannot be read; the run goes on.
func (p *pipeline) checkVersion(v string) {
	if v == "" {
		return
	}
	theirs, ok := parseVersion3(v)
	if !ok {
		p.warnf(agui.TypeRunStarted, "cannot interpret the producer's protocol version "+strconv.Quote(v)+"; going on as "+agui.LatestProtocolVersion)
		return
	}
	ours, _ := parseVersion3(agui.LatestProtocolVersion)
	if theirs[0] > ours[0] || (theirs[0] == ours[0] && theirs[1] > ours[1]) {
		p.warnf(agui.TypeRunStarted, "the producer declares protocol version "+v+", newer than this client's "+agui.LatestProtocolVersion+"; what this client does not know is dropped")
	}
}
