package core

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"strings"
	"sync"
	"testing"
	"time"
)

// A refusal written before the body is read does not wait for the body:
// net/http drains an unread body after the handler, and a client stalled
// mid-upload held that drain (and the server's Shutdown) until its read
// timeout, here forever. WriteHTTP moves the read deadline, so the answer
// goes out at once, the connection is closed, and Shutdown returns nil.
func TestRefusalBeforeBodyReadDoesNotWaitForTheBody(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		(&RequestError{Status: http.StatusUnauthorized, Code: CodeUnauthenticated, Message: "who are you"}).WriteHTTP(w)
	}))
	active := make(chan struct{})
	var once sync.Once
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateActive {
			once.Do(func() { close(active) })
		}
	}
	srv.Start()
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Write([]byte("POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"threadId\":")); err != nil {
		t.Fatal(err)
	}
	<-active
	// A bound on the failure, not a synchronisation: before the fix the
	// answer never came.
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("stalled client got no answer: %v", err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || !resp.Close {
		t.Fatalf("got %d (close %v), want 401 closing the connection", resp.StatusCode, resp.Close)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if err := srv.Config.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown = %v, want nil", err)
	}
}

// A refusal that leaves nothing unread keeps the connection: a request
// without a body, or one whose body was read, is refused and the next
// request reuses the connection.
func TestRefusalKeepsConnectionWhenNothingIsUnread(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		(&RequestError{Status: http.StatusForbidden, Code: CodeForbidden, Message: "not yours"}).WriteHTTP(w)
	}))
	defer srv.Close()
	client := srv.Client()
	defer client.CloseIdleConnections()
	reused := 0
	for i, method := range []string{http.MethodGet, http.MethodGet, http.MethodPost, http.MethodPost} {
		trace := &httptrace.ClientTrace{GotConn: func(c httptrace.GotConnInfo) {
			if c.Reused {
				reused++
			}
		}}
		req, err := http.NewRequestWithContext(httptrace.WithClientTrace(t.Context(), trace), method, srv.URL, strings.NewReader(`{"threadId":"t"}`))
		if err != nil {
			t.Fatal(err)
		}
		if method == http.MethodGet {
			req.Body, req.ContentLength = nil, 0
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden || resp.Close {
			t.Fatalf("request %d: got %d (close %v), want 403 keeping the connection", i, resp.StatusCode, resp.Close)
		}
	}
	if reused != 3 {
		t.Fatalf("%d of 3 later requests reused the connection", reused)
	}
}
