package aguitest

import (
	"io"
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
