package e2e

import (
	"encoding/json"
	"net/http"

	"github.com/ag-ui-protocol/ag-ui/sdks/community/go/pkg/core/events"
	"github.com/ag-ui-protocol/ag-ui/sdks/community/go/pkg/core/types"
	"github.com/ag-ui-protocol/ag-ui/sdks/community/go/pkg/encoding/sse"

	"github.com/agui-go/agui/aguitest"
)

// community serves the fixture and idle routes the way a net/http server on
// the Go community SDK does (its own example and the servers built on it):
// decode the input into types.RunAgentInput, then build each event with the
// SDK's constructors and write it with an SSEWriter, which flushes after
// every event. One SSEWriter per request: a shared one refuses more than
// 100 concurrent writes. The events are written from the handler's own
// goroutine, as the SDK's example server does: the cheapest way to use the
// SDK (no hand-off between an agent goroutine and the writer, which our
// runner pays).
func community() http.Handler {
	texts, args := fixtureStrings()
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+PathFixture, func(w http.ResponseWriter, r *http.Request) {
		in, ok := communityInput(w, r)
		if !ok {
			return
		}
		sw, ctx := sse.NewSSEWriter(), r.Context()
		communityFixture(in, texts, args, func(ev events.Event) bool { return sw.WriteEvent(ctx, w, ev) == nil })
	})
	mux.HandleFunc("POST "+PathThread, func(w http.ResponseWriter, r *http.Request) {
		in, ok := communityInput(w, r)
		if !ok {
			return
		}
		sw, ctx := sse.NewSSEWriter(), r.Context()
		emit := func(ev events.Event) bool { return sw.WriteEvent(ctx, w, ev) == nil }
		if !emit(events.NewRunStartedEvent(in.ThreadID, in.RunID)) ||
			!emit(events.NewTextMessageStartEvent(aguitest.FixtureMessageID, events.WithRole("assistant"))) {
			return
		}
		for _, d := range threadDeltas {
			if !emit(events.NewTextMessageContentEvent(aguitest.FixtureMessageID, d)) {
				return
			}
		}
		_ = emit(events.NewTextMessageEndEvent(aguitest.FixtureMessageID)) &&
			emit(events.NewRunFinishedEventWithOptions(in.ThreadID, in.RunID,
				events.WithOutcome(events.RunFinishedOutcome{Type: events.RunFinishedOutcomeTypeSuccess})))
	})
	mux.HandleFunc("POST "+PathIdle, func(w http.ResponseWriter, r *http.Request) {
		in, ok := communityInput(w, r)
		if !ok {
			return
		}
		if err := sse.NewSSEWriter().WriteEvent(r.Context(), w, events.NewRunStartedEvent(in.ThreadID, in.RunID)); err != nil {
			return
		}
		<-r.Context().Done()
	})
	return mux
}

func communityInput(w http.ResponseWriter, r *http.Request) (types.RunAgentInput, bool) {
	var in types.RunAgentInput
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return in, false
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	return in, true
}

// communityFixture builds the standard fixture with the SDK's constructors
// and hands each event to emit until emit returns false.
func communityFixture(in types.RunAgentInput, texts, args []string, emit func(events.Event) bool) {
	if !emit(events.NewRunStartedEvent(in.ThreadID, in.RunID)) ||
		!emit(events.NewTextMessageStartEvent(aguitest.FixtureMessageID, events.WithRole("assistant"))) {
		return
	}
	for _, t := range texts {
		if !emit(events.NewTextMessageContentEvent(aguitest.FixtureMessageID, t)) {
			return
		}
	}
	if !emit(events.NewTextMessageEndEvent(aguitest.FixtureMessageID)) ||
		!emit(events.NewToolCallStartEvent(aguitest.FixtureToolCallID, aguitest.FixtureToolName)) {
		return
	}
	for _, a := range args {
		if !emit(events.NewToolCallArgsEvent(aguitest.FixtureToolCallID, a)) {
			return
		}
	}
	_ = emit(events.NewToolCallEndEvent(aguitest.FixtureToolCallID)) &&
		emit(events.NewToolCallResultEvent(aguitest.FixtureToolMessageID, aguitest.FixtureToolCallID, aguitest.FixtureToolResult)) &&
		emit(events.NewStateSnapshotEvent(aguitest.FixtureState())) &&
		emit(events.NewRunFinishedEventWithOptions(in.ThreadID, in.RunID,
			events.WithOutcome(events.RunFinishedOutcome{Type: events.RunFinishedOutcomeTypeSuccess})))
}
