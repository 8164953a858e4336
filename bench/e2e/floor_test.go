package e2e_test

import (
	"testing"
	"time"

	"github.com/agui-go/agui/bench/e2e"
)

// TestFloorAnswersTheThreadRoute: the floor takes the sweep's requests and
// answers each with a complete stream, which the client checks as it does
// every server's (ThreadEvents events, the last RUN_FINISHED).
func TestFloorAnswersTheThreadRoute(t *testing.T) {
	rows, err := e2e.Compare{Servers: []string{e2e.ServerFloor}, Concurrency: []int{1, 4}, Duration: 30 * time.Millisecond,
		Launch: launcher(1), Path: e2e.PathThread, Events: e2e.ThreadEvents, Messages: 10}.Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Streams == 0 || r.Failures != 0 || r.Events != int64(r.Streams)*e2e.ThreadEvents {
			t.Errorf("C = %d: %d streams, %d failures %q, %d events", r.Concurrency, r.Streams, r.Failures, r.Errors, r.Events)
		}
	}
}
