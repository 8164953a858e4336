package resume_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/resume"
)

// startAs POSTs a run as user and lets its client go away at once; it
// returns the answer when it was a refusal.
func startAs(rh *resume.Handler[core.NoState], user, run string) *httptest.ResponseRecorder {
	ctx, cancel := context.WithCancel(context.Background())
	r := httptest.NewRequestWithContext(ctx, http.MethodPost, "/chat", strings.NewReader(runRequest("t-"+run, run)))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("X-User", user)
	w := httptest.NewRecorder()
	done := make(chan struct{})
	go func() {
		defer close(done)
		rh.Start(w, r)
	}()
	synctest.Wait() // the run is live, or was refused
	cancel()
	<-done
	return w
}

// TestResumableDetachedRunCaps: a detaching route caps the runs that may
// outlive their client, per principal and per route, with a JSON 429 and
// a Retry-After before any stream; a run that ends frees its place.
func TestResumableDetachedRunCaps(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		lg := mustMemoryLog(t)
		defer lg.Close()
		owner := core.WithPrincipal(func(r *http.Request) (string, error) { return r.Header.Get("X-User"), nil })
		rh := newResumable(t, blockAgent(nil), lg, resume.WithDetach(time.Minute), owner, resume.WithMaxDetachedRuns(3, 2))
		defer rh.Close(context.Background())
		refused := func(w *httptest.ResponseRecorder) bool {
			t.Helper()
			if w.Code != http.StatusTooManyRequests {
				return false
			}
			var body struct{ Code string }
			if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || body.Code != string(resume.CodeTooManyDetachedRuns) ||
				w.Header().Get("Retry-After") != "1" || strings.Contains(w.Body.String(), "data:") {
				t.Fatalf("refusal %q %v, Retry-After %q", w.Body.String(), err, w.Header().Get("Retry-After"))
			}
			return true
		}
		for i := range 2 {
			if w := startAs(rh, "mallory", "m"+strconv.Itoa(i)); refused(w) {
				t.Fatalf("run %d of 2 refused", i+1)
			}
		}
		if w := startAs(rh, "mallory", "m2"); !refused(w) {
			t.Fatalf("a third detached run of one principal: %d %q", w.Code, w.Body.String())
		}
		if w := startAs(rh, "alice", "a0"); refused(w) {
			t.Fatal("another principal was refused under the route's cap")
		}
		if w := startAs(rh, "bob", "b0"); !refused(w) {
			t.Fatalf("a fourth detached run on a route capped at 3: %d", w.Code)
		}
		// Nobody comes back: the runs are abandoned after the grace period,
		// and their places are free again.
		time.Sleep(time.Minute)
		synctest.Wait()
		if w := startAs(rh, "mallory", "m3"); refused(w) {
			t.Fatal("refused after the abandoned runs ended")
		}
	})
}

// TestResumableDetachedRunCapDefault: without the option, one principal
// has DefaultMaxDetachedRunsPerPrincipal detached runs at most.
func TestResumableDetachedRunCapDefault(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		lg := mustMemoryLog(t)
		defer lg.Close()
		owner := core.WithPrincipal(func(r *http.Request) (string, error) { return r.Header.Get("X-User"), nil })
		rh := newResumable(t, blockAgent(nil), lg, resume.WithDetach(time.Minute), owner)
		defer rh.Close(context.Background())
		for i := range resume.DefaultMaxDetachedRunsPerPrincipal {
			if w := startAs(rh, "mallory", "r"+strconv.Itoa(i)); w.Code == http.StatusTooManyRequests {
				t.Fatalf("run %d refused", i+1)
			}
		}
		// Requests without a principal are only under the route's cap.
		if w := startAs(rh, "", "anonymous"); w.Code == http.StatusTooManyRequests {
			t.Fatal("a run without a principal was refused under the route's cap")
		}
		if w := startAs(rh, "mallory", "over"); w.Code != http.StatusTooManyRequests {
			t.Fatalf("run %d of one principal: %d, want 429", resume.DefaultMaxDetachedRunsPerPrincipal+1, w.Code)
		}
		if _, err := resume.New(mustHandler(t, blockAgent(nil)), lg, resume.WithMaxDetachedRuns(-1, 0)); err == nil {
			t.Fatal("a negative cap was accepted")
		}
	})
}
