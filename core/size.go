package core

import (
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/agui-go/agui"
)

// maxEscape is the most bytes one byte of a Go string can take in JSON: an
// invalid UTF-8 byte or a control character becomes a six-byte escape
// (\ufffd, \u0001).
const maxEscape = 6

// sizer keeps every event a run emits within agui.MaxEventSize, the frame
// limit of the SSE and protobuf encodings, so that no event is lost
// between the agent and the wire (issue: an over-limit event used to
// vanish in the transport while the run ended in success).
//
// Content deltas (text, reasoning, tool arguments) are split into several
// deltas at character boundaries: their concatenation is the original, so
// the split is lossless for every client. Any other event over the limit
// is refused with a SERIALIZATION error. The sizer is used under the
// stream's mutex; its buffer is reused between events.
type sizer struct {
	limit int
	buf   []byte
}

// split returns the pieces ev must be sent as: nil when it fits as it is.
// Only content deltas are ever split; a delta that fits in the worst case
// (every byte escaped) costs one length check.
func (z *sizer) split(ev agui.Event) ([]agui.Event, error) {
	delta, isPlain, ok := deltaOf(ev)
	if !ok || isPlain && len(delta)*maxEscape <= z.limit/2 {
		return nil, nil
	}
	// The delta may not fit: measure what the event costs without it.
	var err error
	if z.buf, err = withDelta(ev, "").AppendJSON(z.buf[:0]); err != nil {
		return nil, err
	}
	room := (z.limit - len(z.buf)) / maxEscape
	if len(delta) <= room {
		return nil, nil
	}
	if room < utf8.UTFMax {
		return nil, tooLarge(ev, len(z.buf))
	}
	var out []agui.Event
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
func (z *sizer) check(ev agui.Event) error {
	if delta, isPlain, ok := deltaOf(ev); ok && isPlain && len(delta)*maxEscape <= z.limit/2 {
		return nil // a plain delta that fits even fully escaped
	}
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
	if n > z.limit {
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
func (z *sizer) surelyFits(ev agui.Event) bool {
	e, ok := ev.(*agui.StateSnapshot)
	if !ok || !plain(e.Base) {
		return false
	}
	// {"type":"STATE_SNAPSHOT","timestamp":N,"snapshot":…,"subagentRunId":"…"}
	const frame = 96
	budget := z.limit - frame - len(e.SubagentRunID)*maxEscape
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

func tooLarge(ev agui.Event, n int) error {
	return agui.NewError(agui.CodeSerialization, "core: "+string(ev.Type())+" event of "+strconv.Itoa(n)+
		" bytes of JSON exceeds the "+strconv.Itoa(agui.MaxEventSize)+"-byte event limit")
}

// deltaOf returns the delta of a content-delta event and whether the
// event is plain (no raw event or metadata, so its ids are all it carries
// besides the delta); ok is false for any other event. It allocates
// nothing: it runs for every delta a run emits.
func deltaOf(ev agui.Event) (delta string, isPlain, ok bool) {
	switch e := ev.(type) {
	case *agui.TextMessageContent:
		return e.Delta, plain(e.Base), true
	case *agui.ReasoningMessageContent:
		return e.Delta, plain(e.Base), true
	case *agui.ToolCallArgs:
		return e.Delta, plain(e.Base), true
	}
	return "", false, false
}

// withDelta returns a copy of the content-delta event ev (one deltaOf
// accepts) carrying d as its delta.
func withDelta(ev agui.Event, d string) agui.Event {
	switch e := ev.(type) {
	case *agui.TextMessageContent:
		c := *e
		c.Delta = d
		return &c
	case *agui.ReasoningMessageContent:
		c := *e
		c.Delta = d
		return &c
	case *agui.ToolCallArgs:
		c := *e
		c.Delta = d
		return &c
	}
	return ev
}

func plain(b agui.Base) bool { return b.RawEvent == nil && b.Metadata == nil }
