package aguitest_test

import (
	"strings"
	"testing"

	"github.com/agui-go/agui/aguitest"
)

// ReadFrames keeps each frame's id (0 without one), skips comments and
// frames without data, and stops at its limit.
func TestReadFrames(t *testing.T) {
	const body = "retry: 1000\n\n" +
		"id: 1\ndata: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n" +
		": ping\n\n" +
		"data: {\"type\":\"STEP_STARTED\",\"stepName\":\"s\"}\n\n" +
		"id: 3\ndata: {\"type\":\"STEP_FINISHED\",\"stepName\":\"s\"}\n\n"
	all := aguitest.ReadFrames(t, strings.NewReader(body), 0)
	if len(all) != 3 || all[0].ID != 1 || all[1].ID != 0 || all[2].ID != 3 ||
		!strings.Contains(all[1].Data, `"STEP_STARTED"`) || !strings.Contains(all[2].Data, `"STEP_FINISHED"`) {
		t.Fatalf("frames: %+v", all)
	}
	if first := aguitest.ReadFrames(t, strings.NewReader(body), 2); len(first) != 2 || first[1].ID != 0 {
		t.Fatalf("the first two frames: %+v", first)
	}
}
