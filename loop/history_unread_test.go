package loop

import (
	"bufio"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/agui-go/agui/core"
)

// The history's refusals are core's JSON error body, written by
// RequestError.WriteHTTP: a POST stalled mid-upload gets its 405 at once,
// on a closed connection, instead of waiting while net/http drains the
// body it never reads.
func TestHistoryRefusalDoesNotWaitForTheBody(t *testing.T) {
	a := mustNew(t, Script(Turn{Text: "hi"}))
	srv := httptest.NewUnstartedServer(HistoryHandler(a, nil))
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
	if _, err := conn.Write([]byte("POST /threads/t1 HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{")); err != nil {
		t.Fatal(err)
	}
	<-active
	// A bound on the failure, not a synchronisation.
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("stalled client got no answer: %v", err)
	}
	defer resp.Body.Close()
	var body struct{ Error, Code string }
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusMethodNotAllowed || !resp.Close || body.Code != string(core.CodeMethodNotAllowed) ||
		resp.Header.Get("Allow") != "GET, HEAD" {
		t.Fatalf("got %d (close %v, Allow %q) %+v, want 405 METHOD_NOT_ALLOWED closing the connection",
			resp.StatusCode, resp.Close, resp.Header.Get("Allow"), body)
	}
}
