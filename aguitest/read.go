package aguitest

import (
	"io"
	"strconv"
	"testing"

	"github.com/agui-go/agui"
)

// ReadSSE reads an SSE body to its end with [agui.ReadSSE] and checks every
// event with a fresh [agui.Verifier], failing t at the first frame that
// does not decode or breaks an ordering rule. It returns the events read.
func ReadSSE(t testing.TB, body io.Reader) []agui.Event {
	t.Helper()
	return verify(t, agui.ReadSSE(body))
}

// ReadProto is [ReadSSE] for a protobuf body ([agui.ReadProto]).
func ReadProto(t testing.TB, body io.Reader) []agui.Event {
	t.Helper()
	return verify(t, agui.ReadProto(body))
}

// ReadUnverified reads an SSE body like [ReadSSE] but skips the ordering
// check, for tests of streams that are meant to break a rule.
func ReadUnverified(t testing.TB, body io.Reader) []agui.Event {
	t.Helper()
	var evs []agui.Event
	for ev, err := range agui.ReadSSE(body) {
		if err != nil {
			t.Fatalf("aguitest: reading the stream after %d events: %v", len(evs), err)
		}
		evs = append(evs, ev)
	}
	return evs
}

func verify(t testing.TB, seq func(func(agui.Event, error) bool)) []agui.Event {
	t.Helper()
	v := agui.NewVerifier()
	var evs []agui.Event
	for ev, err := range seq {
		if err != nil {
			t.Fatalf("aguitest: reading the stream after %d events: %v", len(evs), err)
		}
		if err := v.Observe(ev); err != nil {
			t.Fatalf("aguitest: the verifier rejects event %d (%s): %v", len(evs), ev.Type(), err)
		}
		evs = append(evs, ev)
	}
	return evs
}

// Types returns the types of evs, in order, for compact assertions.
func Types(evs []agui.Event) []agui.EventType {
	out := make([]agui.EventType, len(evs))
	for i, ev := range evs {
		out[i] = ev.Type()
	}
	return out
}

// Frame is one SSE event with its id, as a resumable stream carries it.
type Frame struct {
	// ID is the frame's id: line, 0 when the frame has none.
	ID uint64
	// Data is the event, encoded as JSON.
	Data string
}

// ReadFrames reads the event frames of an SSE body with [agui.SSEReader],
// each with its id, until the body ends or limit frames are read (0: no
// limit), so a test can stop mid-stream and rejoin from the last id. It
// fails t on a frame that does not decode and on an id that is not a
// decimal number. It checks no ordering: a stream rejoined from a cursor
// starts mid-run. The reader may have buffered frames past the limit,
// which a later call on the same body does not see: read on from a body
// after a limit only where the server had sent nothing further.
func ReadFrames(t testing.TB, body io.Reader, limit int) []Frame {
	t.Helper()
	r := agui.NewSSEReader(body)
	var out []Frame
	for ev, err := range r.Events() {
		if err != nil {
			t.Fatalf("aguitest: reading the stream after %d frames: %v", len(out), err)
		}
		data, err := ev.AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		f := Frame{Data: string(data)}
		if id, ok := r.EventID(); ok {
			if f.ID, err = strconv.ParseUint(id, 10, 64); err != nil {
				t.Fatalf("aguitest: frame %d has the id %q, not a decimal number", len(out), id)
			}
		}
		out = append(out, f)
		if len(out) == limit {
			break
		}
	}
	return out
}
