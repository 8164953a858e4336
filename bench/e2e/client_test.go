package e2e_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agui-go/agui/bench/e2e"
)

// sseServer answers every request with status and the given frames, each
// written and flushed by itself, split in two writes at split bytes when
// split > 0 (so that a pattern may straddle two reads).
func sseServer(t *testing.T, status int, frames []string, split int) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(status)
		f := w.(http.Flusher)
		for _, fr := range frames {
			if split > 0 && split < len(fr) {
				_, _ = w.Write([]byte(fr[:split]))
				f.Flush()
				fr = fr[split:]
			}
			_, _ = w.Write([]byte(fr))
			f.Flush()
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestLoadCountsCompleteStreams(t *testing.T) {
	frames := []string{
		"data: {\"type\":\"RUN_STARTED\"}\n\n",
		": a comment line\n\n",
		"id: 2\ndata: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"delta\":\"data: inside\"}\n\n",
		"data: {\"type\":\"RUN_FINISHED\"}\n\n",
	}
	for _, split := range []int{0, 1, 3, 7} {
		url := sseServer(t, http.StatusOK, frames, split)
		s, err := e2e.Load{URL: url, Concurrency: 2, Duration: time.Millisecond, Events: 3}.Run(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if s.Streams < 2 || s.Failures != 0 || s.Events != int64(3*s.Streams) || len(s.TTFE) != s.Streams {
			t.Errorf("split %d: %d streams, %d failures %q, %d events, %d TTFE", split, s.Streams, s.Failures, s.Errors, s.Events, len(s.TTFE))
		}
		if s.EventsPerSec() <= 0 {
			t.Errorf("split %d: %f events/s", split, s.EventsPerSec())
		}
	}
}

func TestLoadCountsIncompleteStreamsAsFailures(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
		frames []string
		want   string
	}{
		{"short", http.StatusOK, []string{"data: {\"type\":\"RUN_STARTED\"}\n\n", "data: {\"type\":\"RUN_FINISHED\"}\n\n"}, "2 events, want 3"},
		{"unfinished", http.StatusOK, []string{"data: {\"type\":\"RUN_STARTED\"}\n\n", "data: {}\n\n", "data: {\"type\":\"RUN_ERROR\"}\n\n"}, "not RUN_FINISHED"},
		{"status", http.StatusBadRequest, nil, "status 400"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := sseServer(t, tc.status, tc.frames, 0)
			s, err := e2e.Load{URL: url, Duration: time.Millisecond, Events: 3}.Run(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if s.Streams == 0 || s.Failures != s.Streams || s.Events != 0 {
				t.Fatalf("%d streams, %d failures, %d events", s.Streams, s.Failures, s.Events)
			}
			if len(s.Errors) != 1 || !strings.Contains(s.Errors[0], tc.want) {
				t.Errorf("errors %q, want one with %q", s.Errors, tc.want)
			}
		})
	}
}

func TestLoadRefusesOtherHosts(t *testing.T) {
	for _, url := range []string{"http://example.com/fixture", "https://127.0.0.1/x", "http://10.0.0.1:80/"} {
		if _, err := (e2e.Load{URL: url}).Run(t.Context()); err == nil {
			t.Errorf("%s: no error", url)
		}
	}
}

func TestPercentile(t *testing.T) {
	var d []time.Duration
	for i := range 100 {
		d = append(d, time.Duration(i+1))
	}
	if p := e2e.Percentile(d, 50); p != 51 {
		t.Errorf("p50 %d", p)
	}
	if p := e2e.Percentile(d, 99); p != 100 {
		t.Errorf("p99 %d", p)
	}
	if p := e2e.Percentile(nil, 99); p != 0 {
		t.Errorf("p99 of none %d", p)
	}
}
