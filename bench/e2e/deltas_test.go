package e2e_test

import (
	"os"
	"testing"

	"github.com/agui-go/agui/bench/e2e"
)

func TestDeltasStreamsEveryDelta(t *testing.T) {
	res, err := e2e.Deltas(t.Context(), launcher(1000), 1000, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	if res.Deltas != 1000 || res.Streams != 1 || res.Failures != 0 || res.Events != int64(e2e.DeltaEvents(1000)) {
		t.Fatalf("%d deltas, %d streams, %d failures %q, %d events", res.Deltas, res.Streams, res.Failures, res.Errors, res.Events)
	}
}

func TestDeltasFailsWhenTheCountsDisagree(t *testing.T) {
	// The server streams 10 deltas; the client expects 20.
	res, err := e2e.Deltas(t.Context(), launcher(10), 20, os.Stderr)
	if err == nil || res.Failures != 1 {
		t.Fatalf("%+v, %v", res, err)
	}
}
