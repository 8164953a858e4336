package agui

import "testing"

// BenchmarkVerifier reports the verifier's cost per event over a realistic
// run: a 1000-delta message, a tool call and its result. Run it with and
// without -tags agui_noverify to compare.
func BenchmarkVerifier(b *testing.B) {
	stream := []Event{
		&RunStarted{ThreadID: "t", RunID: "r", ProtocolVersion: ProtocolVersion},
		&TextMessageStart{MessageID: "m", Role: RoleAssistant},
	}
	for range 1000 {
		stream = append(stream, &TextMessageContent{MessageID: "m", Delta: "token "})
	}
	stream = append(stream,
		&TextMessageEnd{MessageID: "m"},
		&ToolCallStart{ToolCallID: "tc", ToolCallName: "search", ParentMessageID: "m"},
		&ToolCallArgs{ToolCallID: "tc", Delta: `{"q":"weather"}`},
		&ToolCallEnd{ToolCallID: "tc"},
		&ToolCallResult{MessageID: "tm", ToolCallID: "tc", Content: TextContent("sunny")},
		&RunFinished{ThreadID: "t", RunID: "r"},
	)
	// One verifier for every iteration: RUN_STARTED after RUN_FINISHED
	// starts afresh, as on a stream carrying several runs.
	v := NewVerifier()
	b.ReportAllocs()
	for b.Loop() {
		for _, ev := range stream {
			if err := v.Observe(ev); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(stream)), "ns/event")
}
