package main

import (
	"strings"
	"testing"
)

// The case: 4 MiB of invalid UTF-8 sent to the echo route decodes
// to 12 MiB of U+FFFD, one "word" too large for one event. The client
// gets every byte back, in deltas that each fit the frame limit, and a
// successful run; before, the delta vanished and the run still succeeded.
func TestEchoOversizedInvalidUTF8(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	raw := strings.Repeat("\xff", 4<<20)
	body := `{"threadId":"t","runId":"r","protocolVersion":"1.0","messages":[{"id":"u1","role":"user","content":"` + raw + `"}]}`
	evs := stream(t, srv.URL+"/agents/echo", body)
	finished(t, evs)
	if got, want := text(evs), strings.Repeat("\uFFFD", 4<<20); got != want {
		t.Fatalf("echoed %d bytes, want %d", len(got), len(want))
	}
}
