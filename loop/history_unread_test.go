package loop

import (
	"bufio"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/internal/stalltest"
)

// The history's refusals are core's JSON error body, written by
// RequestError.WriteHTTP: a POST stalled mid-upload gets its 405 at once,
// on a closed connection, instead of waiting while net/http drains the
// body it never reads.
func TestHistoryRefusalDoesNotWaitForTheBody(t *testing.T) {
	a := mustNew(t, Script(Turn{Text: "hi"}))
	_, conn := stalltest.Upload(t, ThreadsHandler(a, nil), "POST /threads/t1 HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{")
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
		resp.Header.Get("Allow") != "GET, PATCH, DELETE, HEAD" {
		t.Fatalf("got %d (close %v, Allow %q) %+v, want 405 METHOD_NOT_ALLOWED closing the connection",
			resp.StatusCode, resp.Close, resp.Header.Get("Allow"), body)
	}
}
