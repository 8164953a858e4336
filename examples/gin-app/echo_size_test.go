package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// The case: 4 MiB of invalid UTF-8 sent to the echo route decodes
// to 12 MiB of U+FFFD. The client gets the first maxEchoBytes back,
// marked as cut, and a successful run.
func TestEchoOversizedInvalidUTF8(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	raw := strings.Repeat("\xff", 4<<20)
	body := `{"threadId":"t","runId":"r","protocolVersion":"1.0","messages":[{"id":"u1","role":"user","content":"` + raw + `"}]}`
	evs := stream(t, srv.URL+"/agents/echo", body)
	finished(t, evs)
	if got := text(evs); !strings.HasPrefix(got, "\uFFFD") || !strings.HasSuffix(got, "…") || len(got) > maxEchoBytes+len("…") {
		t.Fatalf("echoed %d bytes, want at most %d ending in …", len(got), maxEchoBytes+len("…"))
	}
}

// Amplification is bounded: 8 MiB of one-letter words (before: 4 million
// events, 449 MB back) gets a response of a few tens of KiB over HTTP.
func TestEchoResponseIsBounded(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	words := strings.Repeat("a ", 4<<20-64)
	resp := do(t, srv.URL+"/agents/echo", input(words, ""))
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d, %v", resp.StatusCode, err)
	}
	if n > 64<<10 {
		t.Fatalf("8 MiB in, %d bytes out", n)
	}
	small := stream(t, srv.URL+"/agents/echo", input("hello agents", ""))
	if got := text(small); got != "hello agents" {
		t.Fatalf("echoed %q", got)
	}
}
