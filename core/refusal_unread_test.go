package core

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agui-go/agui/internal/stalltest"
)

// A refusal written before the body is read does not wait for the body:
// net/http drains an unread body after the handler, and a client stalled
// mid-upload held that drain (and the server's Shutdown) until its read
// timeout, here forever. WriteHTTP moves the read deadline, so the answer
// goes out at once, the connection is closed, and Shutdown returns nil.
func TestRefusalBeforeBodyReadDoesNotWaitForTheBody(t *testing.T) {
	srv, conn := stalltest.Upload(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		(&RequestError{Status: http.StatusUnauthorized, Code: CodeUnauthenticated, Message: "who are you"}).WriteHTTP(w)
	}), "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"threadId\":")
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

// A refusal closes its connection, even when nothing was left unread (a
// request without a body, or one whose body was read): the read deadline
// WriteHTTP moved would stay on the connection, and net/http's background
// read, failing at once, would cancel every later request on it as it
// starts. The next request gets a new connection and a live context.
func TestRefusalClosesItsConnection(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			t.Error(err)
		}
		if r.URL.Path != "/next" {
			(&RequestError{Status: http.StatusServiceUnavailable, Code: "CHECKPOINT_ERROR", Message: "store down"}).WriteHTTP(w)
			return
		}
		// The background read that cancels a request whose connection
		// fails starts once the body is read: give it its chance.
		select {
		case <-r.Context().Done():
			http.Error(w, "cancelled", http.StatusGone)
		case <-time.After(100 * time.Millisecond): // a bound on failure, not a wait for success
			w.WriteHeader(http.StatusOK)
		}
	}))
	defer srv.Close()
	client := srv.Client()
	defer client.CloseIdleConnections()
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		req, err := http.NewRequestWithContext(t.Context(), method, srv.URL+"/refuse", strings.NewReader(`{"threadId":"t","runId":"r"}`))
		if err != nil {
			t.Fatal(err)
		}
		if method == http.MethodGet {
			req.Body, req.ContentLength = nil, 0
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable || !resp.Close {
			t.Fatalf("%s refused: got %d (close %v), want 503 closing the connection", method, resp.StatusCode, resp.Close)
		}
		resp, err = client.Post(srv.URL+"/next", "application/json", strings.NewReader(`{"threadId":"t","runId":"r"}`))
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("the request after a refused %s got %d: its context was cancelled", method, resp.StatusCode)
		}
	}
}
