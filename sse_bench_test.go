package agui_test

import (
	"runtime"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
)

// BenchmarkEncodeSSE frames the standard fixture (the standard benchmark fixture) into one
// reused buffer, as a transport does, and reports per-event figures.
func BenchmarkEncodeSSE(b *testing.B) {
	b.Run("fixture", func(b *testing.B) {
		benchmarkFrames(b, aguitest.StandardFixture())
	})
	b.Run("text_message_content", func(b *testing.B) {
		var evs []agui.Event
		for _, ev := range aguitest.StandardFixture() {
			if ev.Type() == agui.TypeTextMessageContent {
				evs = append(evs, ev)
			}
		}
		benchmarkFrames(b, evs)
	})
}

func benchmarkFrames(b *testing.B, evs []agui.Event) {
	buf := make([]byte, 0, 64<<10)
	size := 0
	for _, ev := range evs {
		frame, err := agui.AppendSSE(buf[:0], ev)
		if err != nil {
			b.Fatal(err)
		}
		size += len(frame)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for b.Loop() {
		for _, ev := range evs {
			var err error
			if buf, err = agui.AppendSSE(buf[:0], ev); err != nil {
				b.Fatal(err)
			}
		}
	}
	runtime.ReadMemStats(&after)
	n := float64(b.N) * float64(len(evs))
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/event")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/n, "B/event")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/n, "allocs/event")
}
