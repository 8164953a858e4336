// Package stalltest plays a client that stalls mid-upload, for tests of
// what a server does about a request whose body never finishes: answer
// it at once, cut it at shutdown, or wait (the bug those tests exist
// for).
//
//	srv, conn := stalltest.Upload(t, handler, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{")
//	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
//
// It is test support: only tests import it.
package stalltest

import (
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// Upload starts a server for h, connects to it and writes start, a
// request whose head promises more body than it carries, then sends
// nothing more. It returns once the server is handling the request, with
// the server and the client's connection, both closed when t ends (the
// connection first). A failure to connect or write fails t.
func Upload(t testing.TB, h http.Handler, start string) (*httptest.Server, net.Conn) {
	t.Helper()
	srv := httptest.NewUnstartedServer(h)
	active := make(chan struct{})
	var once sync.Once
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateActive {
			once.Do(func() { close(active) })
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if _, err := conn.Write([]byte(start)); err != nil {
		t.Fatal(err)
	}
	<-active
	return srv, conn
}
