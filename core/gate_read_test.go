package core

import (
	"bufio"
	"strings"
	"testing"

	"github.com/agui-go/agui/internal/stalltest"
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
	_, conn := stalltest.Upload(t, h, "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"threadId\":")
	if err := gate.Shutdown(t.Context()); err != nil {
		t.Fatalf("Shutdown = %v", err)
	}
	status, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil || !strings.HasPrefix(status, "HTTP/1.1 503") {
		t.Fatalf("stalled client got %q, %v; want 503", status, err)
	}
}
