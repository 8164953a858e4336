package core

import (
	"bufio"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// A gate's Shutdown cuts the body reads in progress on its routes: a
// client stalled mid-upload gets 503 at once, not its 408 at the read
// timeout (which outlasts a shutdown's deadline), and Shutdown returns
// nil.
func TestGateShutdownCutsStalledUploads(t *testing.T) {
	gate := new(Gate)
	h, err := NewHandler[NoState](sayHi(), WithGate(gate))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(h)
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
	if err := gate.Shutdown(t.Context()); err != nil {
		t.Fatalf("Shutdown = %v", err)
	}
	status, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil || !strings.HasPrefix(status, "HTTP/1.1 503") {
		t.Fatalf("stalled client got %q, %v; want 503", status, err)
	}
}
