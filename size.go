package agui

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// maxEscape is the most bytes one byte of a Go string can take in JSON: an
// invalid UTF-8 byte or a control character becomes a six-byte escape
// (\ufffd, \u0001).
const maxEscape = 6

// EventSizer keeps the events of one stream within [MaxEventSize], the
// frame limit of the SSE and protobuf encodings, so that no event is lost
// between the agent and the wire: an over-limit event would otherwise
// vanish in the transport while the run ended in success. Every event
// path of the module sizes its events with it, so an event is refused or
// split the same way whoever hosts the agent.
//
// Content deltas (text, reasoning, tool arguments) are split into several
// deltas at character boundaries: their concatenation is the original, so
// the split is lossless for every client. Any other event over the limit
// is refused with a SERIALIZATION error.
//
// The zero EventSizer is ready to use. It is not safe for concurrent use:
// it reuses one buffer between events, so a stream sizes its events under
// the lock that orders them.
type EventSizer struct {
	limit int // 0 is MaxEventSize; tests set a smaller one
	buf   []byte
}

func (z *EventSizer) max() int {
	if z.limit == 0 {
		return MaxEventSize
	}
	return z.limit
}

// Fit returns the events ev must be sent as: nil when ev fits as it is,
// the pieces of a content delta too large for one frame, and a
// SERIALIZATION [*Error] (ev is not to be sent) for any other event over
// the limit or an event that does not encode. A plain delta that fits
// even with every byte escaped costs one length check.
func (z *EventSizer) Fit(ev Event) ([]Event, error) {
	if _, _, ok := deltaOf(ev); ok {
		return z.split(ev)
	}
	return nil, z.check(ev)
}

// split returns the pieces the content delta ev must be sent as: nil when
// it fits as it is.
func (z *EventSizer) split(ev Event) ([]Event, error) {
	delta, isPlain, _ := deltaOf(ev)
	if isPlain && len(delta)*maxEscape <= z.max()/2 {
		return nil, nil
	}
	// The delta may not fit: measure what the event costs without it.
	var err error
	if z.buf, err = withDelta(ev, "").AppendJSON(z.buf[:0]); err != nil {
		return nil, err
	}
	room := (z.max() - len(z.buf)) / maxEscape
	if len(delta) <= room {
		return nil, nil
	}
	if room < utf8.UTFMax {
		return nil, tooLarge(ev, len(z.buf))
	}
	var out []Event
	for len(delta) > room {
		cut := room
		// Back up to the start of a character, so no valid character is
		// cut in two (a continuation byte run longer than a character is
		// invalid anyway and encodes the same however it is cut).
		for i := cut; i > cut-utf8.UTFMax && i > 0; i-- {
			if utf8.RuneStart(delta[i]) {
				cut = i
				break
			}
		}
		out = append(out, withDelta(ev, delta[:cut]))
		delta = delta[cut:]
	}
	return append(out, withDelta(ev, delta)), nil
}

// check refuses an event, other than a content delta, whose JSON exceeds
// the limit.
func (z *EventSizer) check(ev Event) error {
	if z.surelyFits(ev) {
		return nil
	}
	var err error
	if z.buf, err = ev.AppendJSON(z.buf[:0]); err != nil {
		return err
	}
	n := len(z.buf)
	if cap(z.buf) > 64<<10 {
		z.buf = nil // keep no large buffer alive for the rest of the run
	}
	if n > z.max() {
		return tooLarge(ev, n)
	}
	return nil
}

// surelyFits reports whether a state snapshot's JSON is within the limit
// by an upper bound on its size, without encoding it: the transport
// encodes it again anyway, and a large state is the one event whose
// encoding costs much. It is false, and check encodes the event, whenever
// the bound cannot be had (metadata, a type the bound does not know, a
// number that does not encode, deep nesting), so encoding errors are
// still reported by check.
func (z *EventSizer) surelyFits(ev Event) bool {
	e, ok := ev.(*StateSnapshot)
	if !ok || !plain(e.Base) {
		return false
	}
	// {"type":"STATE_SNAPSHOT","timestamp":N,"snapshot":…,"subagentRunId":"…"}
	const frame = 96
	budget := z.max() - frame - len(e.SubagentRunID)*maxEscape
	return budget > 0 && jsonBound(e.Snapshot, budget, 0) >= 0
}

// boundDepth is how deep jsonBound follows maps and slices before it gives
// up (the encoder's own limit is far deeper).
const boundDepth = 64

// jsonBound returns an upper bound on the size of v's JSON when it is at
// most budget bytes, and -1 when it is larger or cannot be bounded.
func jsonBound(v any, budget, depth int) int {
	n := 0
	switch v := v.(type) {
	case nil:
		n = len("null")
	case bool:
		n = len("false")
	case string:
		n = 2 + len(v)*maxEscape
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return -1
		}
		n = 32 // -1.2345678901234567e-308 and the like
	case int, int64, int32, uint64:
		n = 20
	case map[string]any:
		if depth++; depth > boundDepth {
			return -1
		}
		n = len("null") // a nil map; {} otherwise
		for k, x := range v {
			if n += 3 + len(k)*maxEscape; n > budget {
				return -1
			}
			m := jsonBound(x, budget-n, depth)
			if m < 0 {
				return -1
			}
			n += m
		}
	case []any:
		if depth++; depth > boundDepth {
			return -1
		}
		n = len("null") // a nil slice; [] otherwise
		for _, x := range v {
			if n++; n > budget {
				return -1
			}
			m := jsonBound(x, budget-n, depth)
			if m < 0 {
				return -1
			}
			n += m
		}
	default:
		return -1
	}
	if n > budget {
		return -1
	}
	return n
}

func tooLarge(ev Event, n int) error {
	return NewError(CodeSerialization, "agui: "+string(ev.Type())+" event of "+strconv.Itoa(n)+
		" bytes of JSON exceeds the "+strconv.Itoa(MaxEventSize)+"-byte event limit")
}

// deltaOf returns the delta of a content-delta event and whether the
// event is plain (no raw event or metadata, so its ids are all it carries
// besides the delta); ok is false for any other event. It allocates
// nothing: it runs for every delta a run emits.
func deltaOf(ev Event) (delta string, isPlain, ok bool) {
	switch e := ev.(type) {
	case *TextMessageContent:
		return e.Delta, plain(e.Base), true
	case *ReasoningMessageContent:
		return e.Delta, plain(e.Base), true
	case *ToolCallArgs:
		return e.Delta, plain(e.Base), true
	}
	return "", false, false
}

// withDelta returns a copy of the content-delta event ev (one deltaOf
// accepts) carrying d as its delta.
func withDelta(ev Event, d string) Event {
	switch e := ev.(type) {
	case *TextMessageContent:
		c := *e
		c.Delta = d
		return &c
	case *ReasoningMessageContent:
		c := *e
		c.Delta = d
		return &c
	case *ToolCallArgs:
		c := *e
		c.Delta = d
		return &c
	}
	return ev
}

func plain(b Base) bool { return b.RawEvent == nil && b.Metadata == nil }
