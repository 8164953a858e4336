package e2e

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestServeDebugRefusesAnAddressOffThisMachine(t *testing.T) {
	if _, err := serveDebug("192.0.2.1:6060", io.Discard); err == nil {
		t.Fatal("serveDebug listened on a non-loopback address")
	}
}

func TestServeDebugReportsTheMemoryFigures(t *testing.T) {
	srv, err := serveDebug("127.0.0.1:0", io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	res, err := http.Get("http://" + srv.Addr + "/debug/mem?gc=1")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"/gc/stack/starting-size:bytes ", "/sched/goroutines:goroutines ", "StackInuse ", "HeapInuse "} {
		if !strings.Contains(string(body), want) {
			t.Errorf("no %q in:\n%s", want, body)
		}
	}
}
