package e2e

import (
	"io"
	"net/http"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
)

// ServerFloor is the floor of the thread-length sweep, not an AG-UI
// server: a bare net/http handler that reads the body without looking at
// it and writes ThreadEvents SSE frames prepared at start-up in one Write.
// What it costs per request is net/http's and the runtime's share of a
// short run, which no handler on net/http can go below. It serves
// PathThread only, and is in no default list: name it in -servers.
const ServerFloor = "floor"

// floor returns the floor's handler.
func floor() (http.Handler, error) {
	frames, err := floorFrames()
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+PathThread, func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.Copy(io.Discard, r.Body); err != nil {
			return
		}
		h := w.Header()
		h.Set("Content-Type", "text/event-stream")
		h.Set("Cache-Control", "no-cache")
		_, _ = w.Write(frames)
	})
	return mux, nil
}

// floorFrames is the PathThread answer as SSE frames: RUN_STARTED, a text
// message of the three deltas, RUN_FINISHED.
func floorFrames() ([]byte, error) {
	const thread, run = "thread-floor", "run-floor"
	evs := []agui.Event{
		&agui.RunStarted{ThreadID: thread, RunID: run},
		&agui.TextMessageStart{MessageID: aguitest.FixtureMessageID, Role: agui.RoleAssistant},
	}
	for _, d := range threadDeltas {
		evs = append(evs, &agui.TextMessageContent{MessageID: aguitest.FixtureMessageID, Delta: d})
	}
	evs = append(evs, &agui.TextMessageEnd{MessageID: aguitest.FixtureMessageID},
		&agui.RunFinished{ThreadID: thread, RunID: run, Outcome: &agui.Outcome{Type: agui.OutcomeSuccess}})
	var b []byte
	for _, ev := range evs {
		var err error
		if b, err = agui.AppendSSE(b, ev); err != nil {
			return nil, err
		}
	}
	return b, nil
}
