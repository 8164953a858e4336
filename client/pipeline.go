package client

import (
	"io"
	"iter"
	"mime"
	"net/http"
	"strconv"

	"github.com/agui-go/agui"
)

// pipeline is what one response goes through: decoding with the tolerance
// rules (decode.go), chunk expansion (chunk.go), the ordering verifier,
// the version check, and the reducer (view.go).
type pipeline struct {
	view     *View
	cfg      *config
	legacy   legacy
	chunks   chunks
	verifier agui.Verifier
	// open is true between a RUN_STARTED and its terminal event.
	open bool
}

// read yields the verified events of resp's body.
func (p *pipeline) read(resp *http.Response) iter.Seq2[agui.Event, error] {
	return func(yield func(agui.Event, error) bool) {
		mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
		if mt == agui.ProtoContentType {
			for ev, err := range agui.ReadProto(resp.Body) {
				if err != nil {
					yield(nil, disconnected(err))
					return
				}
				if !p.event(ev, yield) {
					return
				}
			}
		} else {
			r := agui.NewSSEReader(resp.Body)
			for {
				data, err := r.NextData()
				if err == io.EOF {
					break
				}
				if err != nil {
					yield(nil, disconnected(err))
					return
				}
				ev, err := p.decode(data)
				if err != nil {
					yield(nil, err)
					return
				}
				if ev != nil && !p.event(ev, yield) {
					return
				}
			}
		}
		if p.open {
			yield(nil, agui.NewError(agui.CodeDisconnected, "client: the stream ended before the run's terminal event"))
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

func (p *pipeline) warnf(t agui.EventType, msg string) { p.cfg.warn(Warning{Event: t, Message: msg}) }

// event passes one decoded event through expansion, verification and the
// reducer, yielding what comes out; false means stop.
func (p *pipeline) event(ev agui.Event, yield func(agui.Event, error) bool) bool {
	if !p.era(ev) {
		return true
	}
	evs, err := p.chunks.expand(ev)
	if err != nil {
		return yield(nil, err) && false
	}
	for _, ev := range evs {
		if err := p.verifier.Observe(ev); err != nil {
			return yield(nil, err) && false
		}
		switch e := ev.(type) {
		case *agui.RunStarted:
			p.open = true
			p.checkVersion(e.ProtocolVersion)
		case *agui.RunFinished, *agui.RunError:
			p.open = false
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
		p.warnf(agui.TypeRunStarted, "cannot interpret the producer's protocol version "+strconv.Quote(v)+"; going on as "+agui.ProtocolVersion)
		return
	}
	ours, _ := parseVersion3(agui.ProtocolVersion)
	if theirs[0] > ours[0] || (theirs[0] == ours[0] && theirs[1] > ours[1]) {
		p.warnf(agui.TypeRunStarted, "the producer declares protocol version "+v+", newer than this client's "+agui.ProtocolVersion+"; what this client does not know is dropped")
	}
}
