package loop

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/resume"
)

// A store with no room for a new thread is answered before the stream:
// a JSON 503 with Retry-After and CHECKPOINT_STORE_FULL, on a plain and on
// a resumable route; no RUN_STARTED is sent. Before, the stream started
// and ended in RUN_ERROR CHECKPOINT_ERROR.
func TestStoreFullRefusedBeforeStream(t *testing.T) {
	s := NewMemoryStore(WithMemoryMaxThreads(1))
	saveStatus(t, s, "held", StatusRunning, time.Hour, 0) // a run holds the only slot
	a, err := New(Script(Turn{Text: "hi"}), WithCheckpoints(s))
	if err != nil {
		t.Fatal(err)
	}
	h, err := core.NewHandler[core.NoState](a)
	if err != nil {
		t.Fatal(err)
	}
	lg, err := resume.NewMemoryLog()
	if err != nil {
		t.Fatal(err)
	}
	rh, err := resume.New(h, lg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rh.Close(t.Context()) })
	post := func(srv http.Handler, thread string) *http.Response {
		body := `{"threadId":"` + thread + `","runId":"r-` + thread + `","messages":[{"id":"u","role":"user","content":"go"}],"tools":[],"context":[],"state":null,"forwardedProps":null}`
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		return rec.Result()
	}
	for name, srv := range map[string]http.Handler{"plain": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.Serve(w, r) }), "resumable": rh} {
		res := post(srv, "new-"+name)
		raw, _ := io.ReadAll(res.Body)
		var body struct{ Code string }
		_ = json.Unmarshal(raw, &body)
		if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") != "5" ||
			body.Code != string(CodeStoreFull) || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") ||
			strings.Contains(string(raw), "RUN_STARTED") {
			t.Fatalf("%s: new thread in a full store: %d Retry-After %q %s, want a JSON 503 %s with Retry-After and no stream",
				name, res.StatusCode, res.Header.Get("Retry-After"), raw, CodeStoreFull)
		}
	}
	// Once the held thread is gone a new thread streams.
	if err := s.Delete(t.Context(), "held"); err != nil {
		t.Fatal(err)
	}
	res := post(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.Serve(w, r) }), "later")
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || !strings.Contains(string(raw), "RUN_FINISHED") {
		t.Fatalf("new thread with room: %d %s", res.StatusCode, raw)
	}
}
