package bench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"runtime"
	"testing"

	"github.com/agui-go/agui/aguitest"
)

// sink is what every implementation writes a run to: it counts bytes and
// has a no-op Flush, so that the http.Flusher path of each SDK runs as it
// would on a real response.
type sink interface {
	io.Writer
	http.Flusher
}

type countingSink struct{ n int64 }

func (s *countingSink) Write(p []byte) (int, error) {
	s.n += int64(len(p))
	return len(p), nil
}

func (*countingSink) Flush() {}

// recordingSink keeps what is written, for the shape test.
type recordingSink struct{ bytes.Buffer }

func (*recordingSink) Flush() {}

// impl is one implementation under test. Each mode returns a function that
// writes one whole run of the fixture to a sink; anything prepared before
// that function is returned is not timed.
type impl struct {
	name     string
	prebuilt func() func(sink) error
	build    func() func(sink) error
}

// implementations lists what BenchmarkSSE compares, in report order.
func implementations() []impl {
	return []impl{aguiImpl(), communityImpl(), floorImpl()}
}

func BenchmarkSSE(b *testing.B) {
	for _, im := range implementations() {
		for _, mode := range []struct {
			name string
			make func() func(sink) error
		}{{"prebuilt", im.prebuilt}, {"build", im.build}} {
			b.Run("impl="+im.name+"/mode="+mode.name, func(b *testing.B) {
				run := mode.make()
				var size countingSink
				if err := run(&size); err != nil {
					b.Fatal(err)
				}
				b.SetBytes(size.n)
				b.ReportAllocs()
				var w countingSink
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				cpu := cpuTime()
				for b.Loop() {
					if err := run(&w); err != nil {
						b.Fatal(err)
					}
				}
				cpu = cpuTime() - cpu
				runtime.ReadMemStats(&after)
				events := float64(b.N) * aguitest.FixtureEvents
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/events, "ns/event")
				b.ReportMetric(float64(cpu)/events, "cpu-ns/event")
				b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/events, "B/event")
				b.ReportMetric(float64(after.Mallocs-before.Mallocs)/events, "allocs/event")
			})
		}
	}
}

// frame is one SSE event as a client reads it.
type frame struct {
	data map[string]any
	raw  string
}

// readFrames parses an SSE stream the way the client does: lines up to a
// blank line make one event; data lines are joined; comments and other
// fields are skipped.
func readFrames(t *testing.T, stream []byte) []frame {
	t.Helper()
	var frames []frame
	var data []byte
	sc := bufio.NewScanner(bytes.NewReader(stream))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		switch {
		case len(line) == 0:
			if data == nil {
				continue
			}
			var v map[string]any
			if err := json.Unmarshal(data, &v); err != nil {
				t.Fatalf("frame %d is not JSON: %v: %s", len(frames), err, data)
			}
			frames = append(frames, frame{data: v, raw: string(data)})
			data = nil
		case bytes.HasPrefix(line, []byte("data: ")):
			data = append(data, line[len("data: "):]...)
		}
	}
	if data != nil {
		t.Fatalf("stream ends inside a frame")
	}
	return frames
}

// TestFixtureShape checks that every implementation, in both modes,
// produces the same 1,018 events, equal as JSON apart from timestamps in
// build mode (stamped with the current time there, as servers do).
func TestFixtureShape(t *testing.T) {
	var reference []frame
	for _, im := range implementations() {
		for _, mode := range []struct {
			name string
			make func() func(sink) error
		}{{"prebuilt", im.prebuilt}, {"build", im.build}} {
			t.Run(im.name+"/"+mode.name, func(t *testing.T) {
				var out recordingSink
				if err := mode.make()(&out); err != nil {
					t.Fatal(err)
				}
				frames := readFrames(t, out.Bytes())
				if len(frames) != aguitest.FixtureEvents {
					t.Fatalf("%d frames, want %d", len(frames), aguitest.FixtureEvents)
				}
				counts := map[string]int{}
				for _, f := range frames {
					counts[f.data["type"].(string)]++
				}
				if counts["TEXT_MESSAGE_CONTENT"] != aguitest.FixtureDeltas || counts["TOOL_CALL_ARGS"] != aguitest.FixtureArgChunks {
					t.Errorf("%d TEXT_MESSAGE_CONTENT and %d TOOL_CALL_ARGS frames", counts["TEXT_MESSAGE_CONTENT"], counts["TOOL_CALL_ARGS"])
				}
				t.Logf("%d bytes per run", out.Len())
				if reference == nil {
					reference = frames
					return
				}
				for i, f := range frames {
					if !sameEvent(f.data, reference[i].data, mode.name == "build") {
						t.Fatalf("frame %d differs from %s/prebuilt:\n got %s\nwant %s", i, implementations()[0].name, f.raw, reference[i].raw)
					}
				}
			})
		}
	}
}

func sameEvent(a, b map[string]any, ignoreTimestamp bool) bool {
	if ignoreTimestamp {
		a, b = withoutTimestamp(a), withoutTimestamp(b)
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

func withoutTimestamp(m map[string]any) map[string]any {
	c := make(map[string]any, len(m))
	for k, v := range m {
		if k != "timestamp" {
			c[k] = v
		}
	}
	return c
}
