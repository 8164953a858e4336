package load

import (
	"strings"
	"testing"
)

// TestMatcherAcrossReads feeds a stream in every possible split into two
// reads, and in one-byte reads: an event split between reads is counted
// once, and never twice.
func TestMatcherAcrossReads(t *testing.T) {
	stream := "HTTP/1.1 200 OK\r\n\r\n4a\r\ndata: {\"type\":\"RUN_STARTED\"}\n\n\r\n30\r\ndata: {\"type\":\"TEXT_MESSAGE_CONTENT\"}\n\ndata: {\"type\":\"RUN_FINISHED\"}\n\n\r\n0\r\n\r\n"
	count := func(parts ...string) (events, finished, last int) {
		e, f, l := matcher{pat: patEvent}, matcher{pat: patFinished}, matcher{pat: patLastCk}
		for _, p := range parts {
			e.feed([]byte(p))
			f.feed([]byte(p))
			l.feed([]byte(p))
		}
		return e.n, f.n, l.n
	}
	for i := range len(stream) + 1 {
		if e, f, l := count(stream[:i], stream[i:]); e != 3 || f != 1 || l != 1 {
			t.Fatalf("split at %d: events=%d finished=%d end=%d, want 3 1 1", i, e, f, l)
		}
	}
	if e, f, l := count(strings.Split(stream, "")...); e != 3 || f != 1 || l != 1 {
		t.Fatalf("byte by byte: events=%d finished=%d end=%d, want 3 1 1", e, f, l)
	}
}
