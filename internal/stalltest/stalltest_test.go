package stalltest

import (
	"io"
	"net/http"
	"testing"
)

// Upload returns while the handler is reading a body that never comes:
// the handler has seen the request's head and blocks on its body until
// the connection closes.
func TestUploadStallsInTheBody(t *testing.T) {
	reading := make(chan struct{})
	read := make(chan error, 1)
	_, conn := Upload(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(reading)
		_, err := io.ReadAll(r.Body)
		read <- err
	}), "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{")
	<-reading
	select {
	case err := <-read:
		t.Fatalf("the body ended (%v) while the client stalled", err)
	default:
	}
	conn.Close()
	if err := <-read; err == nil {
		t.Fatal("a body cut short read without error")
	}
}
