package core

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agui-go/agui"
)

// rawExchange sends head (and nothing more) to srv over a fresh
// connection and returns the status line of the first response, waiting
// at most wait.
func rawExchange(t *testing.T, srv *httptest.Server, head string, wait time.Duration) string {
	t.Helper()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Write([]byte(head)); err != nil {
		t.Fatal(err)
	}
	// The guard only bounds a broken server; the server answers long
	// before it.
	_ = conn.SetReadDeadline(time.Now().Add(wait))
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		t.Fatalf("no response: %v", err)
	}
	return strings.TrimSpace(line)
}

func sayHi() AgentFunc[NoState] {
	return func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		return agui.Success(), rc.Say("hi")
	}
}

// A client that sends headers and part of its body, then stalls, gets 408
// once the read timeout passes, instead of holding the request forever.
func TestHandlerBodyReadTimeout(t *testing.T) {
	h, err := NewHandler[NoState](sayHi(), WithReadTimeout(50*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	got := rawExchange(t, srv, "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"threadId\":", 10*time.Second)
	if !strings.HasPrefix(got, "HTTP/1.1 408") {
		t.Fatalf("status line %q, want 408", got)
	}
}

// The 408 reaches the client when the write timeout is no longer than the
// read timeout (the defaults are both 30 s): the write deadline set before
// the body read must not have passed by the time the refusal is written.
// With the defaults the app's stalled clients got an EOF instead, most of
// the time.
func TestHandlerBodyReadTimeoutWithEqualWriteTimeout(t *testing.T) {
	for _, write := range []time.Duration{50 * time.Millisecond, 20 * time.Millisecond} {
		h, err := NewHandler[NoState](sayHi(), WithReadTimeout(50*time.Millisecond), WithWriteTimeout(write))
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(h)
		got := rawExchange(t, srv, "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"threadId\":", 10*time.Second)
		srv.Close()
		if !strings.HasPrefix(got, "HTTP/1.1 408") {
			t.Fatalf("write timeout %v: status line %q, want 408", write, got)
		}
	}
}

// A Content-Length over the limit is refused at once: no 100 Continue
// invites the upload, and nothing is read.
func TestHandlerRefusesLargeContentLengthBeforeReading(t *testing.T) {
	h, err := NewHandler[NoState](sayHi(), WithMaxBodyBytes(1024))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	got := rawExchange(t, srv, "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 104857600\r\n\r\n", 10*time.Second)
	if !strings.HasPrefix(got, "HTTP/1.1 413") {
		t.Fatalf("status line %q, want 413 before any 100 Continue", got)
	}
}

// The read deadline is cleared once the body is read: a stream that
// outlives the read timeout is not cut by it.
func TestHandlerReadTimeoutSparesTheStream(t *testing.T) {
	release := make(chan struct{})
	h, err := NewHandler[NoState](AgentFunc[NoState](func(ctx context.Context, rc *RunContext[NoState]) (agui.Outcome, error) {
		if err := rc.Say("first"); err != nil {
			return agui.Outcome{}, err
		}
		select {
		case <-release:
		case <-ctx.Done():
			return agui.Outcome{}, ctx.Err()
		}
		return agui.Success(), rc.Say("second")
	}), WithReadTimeout(20*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL, strings.NewReader(`{"threadId":"t","runId":"r","messages":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(line, "first") {
			break
		}
	}
	// Wait past the read timeout on the server's own clock: a timer, not
	// synchronisation; the assertion is that the stream still finishes.
	<-time.After(100 * time.Millisecond)
	close(release)
	var rest strings.Builder
	_, _ = bufio.NewReader(br).WriteTo(&rest)
	if !strings.Contains(rest.String(), "RUN_FINISHED") {
		t.Fatalf("stream after the read timeout:\n%s", rest.String())
	}
}

func TestWithReadTimeoutRejectsNegative(t *testing.T) {
	if _, err := NewHandler[NoState](sayHi(), WithReadTimeout(-time.Second)); err == nil {
		t.Fatal("a negative read timeout was accepted")
	}
}
