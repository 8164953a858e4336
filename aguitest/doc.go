// Package aguitest holds test support for code that speaks AG-UI: data sets
// and readers that check what they read. It imports only package agui and
// the standard library, so any test may use it.
//
// Reading a stream under test, verified event by event:
//
//	resp, _ := http.Post(srv.URL+"/agents/echo", "application/json", body)
//	evs := aguitest.ReadSSE(t, resp.Body) // fails t on a bad frame or order
//	if got := aguitest.Types(evs); got[len(got)-1] != agui.TypeRunFinished {
//		t.Fatalf("stream %v", got)
//	}
//
// [ReadFrames] reads a resumable stream's frames with their ids, so a test
// can stop mid-stream and rejoin with Last-Event-ID; it checks no order,
// since a rejoined stream starts mid-run.
//
// Data sets:
//
//   - [StandardFixture] is the standard benchmark run: 1,018 events (a
//     1,000-delta text message, a tool call streamed in 10 argument chunks
//     with its result, a 2 KB state snapshot), built deterministically so
//     that encoders, transports and other SDKs are measured on identical
//     data. The Fixture… functions expose the same data for builders that
//     use another event model.
//   - [Samples] returns every event type at least once, with the fields
//     that make an encoding interesting (content parts of every kind,
//     every outcome, subagent attribution, usage, nulls, metadata, escaping),
//     for tests that compare encodings.
//
// Both return fresh values on every call, so a test may modify them. The
// package is safe for concurrent use.
package aguitest
