package load_test

import (
	"flag"
	"testing"
	"time"

	"github.com/agui-go/agui/test/load"
)

var streams = flag.Int("load.streams", 200, "streams for TestLoadShort")

// TestLoadShort is the short mode CI runs: 200 concurrent streaming runs
// through the in-process server must all finish with RUN_FINISHED.
func TestLoadShort(t *testing.T) {
	res, err := load.Run(t.Context(), load.Config{
		Streams:  *streams,
		Interval: 50 * time.Millisecond,
		Extra:    5,
		Deadline: 30 * time.Second,
	})
	t.Log(res)
	if err != nil {
		t.Fatal(err)
	}
	if res.Failures != 0 {
		t.Fatalf("%d of %d streams failed: %v", res.Failures, res.Streams, res.Errors)
	}
	// Each run is RUN_STARTED, TEXT_MESSAGE_START, the first delta, Extra
	// more and then some while held, TEXT_MESSAGE_END, RUN_FINISHED.
	if min := int64(res.Streams * (5 + 5)); res.Events < min {
		t.Errorf("%d events, want at least %d", res.Events, min)
	}
	if res.TTFE50 <= 0 || res.TTFE99 < res.TTFE50 {
		t.Errorf("TTFE percentiles %s/%s", res.TTFE50, res.TTFE99)
	}
}

func TestRunRefusesOtherHosts(t *testing.T) {
	for _, u := range []string{"http://example.com/agents/echo", "http://10.0.0.1:8080/x", "http://192.168.1.2/x"} {
		if _, err := load.Run(t.Context(), load.Config{URL: u, Streams: 1}); err == nil {
			t.Errorf("Run(%s) was allowed", u)
		}
	}
}
