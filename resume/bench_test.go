package resume_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/resume"
)

// benchDeltas is how many TEXT_MESSAGE_CONTENT events one benchmarked run
// emits: enough that a run's setup is a small part of its cost, few
// enough for a MemoryLog's per-run limits.
const benchDeltas = 1000

// BenchmarkServeDeltas serves one run of benchDeltas deltas per iteration
// to an in-process writer (no network), by the plain route ("Plain") and
// by a resumable route on a MemoryLog ("Resumable"), in one run of the
// benchmark, so their ratio is the price of resumability per event on the
// same machine under the same load. ns/event is the cost per event.
func BenchmarkServeDeltas(b *testing.B) {
	plain, resumable := benchRoutes(b)
	events := float64(benchDeltas + 4) // RUN_STARTED, START, the deltas, END, RUN_FINISHED
	for _, c := range []struct {
		name string
		h    http.Handler
	}{{"Plain", plain}, {"Resumable", resumable}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				i++
				serveBenchRun(b, c.h, c.name+strconv.Itoa(i))
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/events, "ns/event")
		})
	}
}

// BenchmarkResumableOverPlain serves, per iteration, one run by each of
// BenchmarkServeDeltas's routes in turn, and reports their cost per event
// and the ratio of the two: on a shared machine whose load moves between
// benchmarks, the two are measured under the same load.
func BenchmarkResumableOverPlain(b *testing.B) {
	plain, resumable := benchRoutes(b)
	var tp, tr time.Duration
	i := 0
	for b.Loop() {
		i++
		t0 := time.Now()
		serveBenchRun(b, plain, "p"+strconv.Itoa(i))
		t1 := time.Now()
		serveBenchRun(b, resumable, "r"+strconv.Itoa(i))
		tr += time.Since(t1)
		tp += t1.Sub(t0)
	}
	events := float64(b.N) * float64(benchDeltas+4)
	b.ReportMetric(float64(tp.Nanoseconds())/events, "plain-ns/event")
	b.ReportMetric(float64(tr.Nanoseconds())/events, "resumable-ns/event")
	b.ReportMetric(float64(tr)/float64(tp), "ratio")
}

// benchRoutes returns the plain route and a resumable route on a
// MemoryLog of the same handler, whose agent streams benchDeltas deltas.
func benchRoutes(b *testing.B) (plain, resumable http.Handler) {
	agent := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		m, err := rc.Message()
		if err != nil {
			return agui.Outcome{}, err
		}
		for range benchDeltas {
			if err := m.Delta("token "); err != nil {
				return agui.Outcome{}, err
			}
		}
		return agui.Success(), m.End()
	})
	h, err := core.NewHandler(agent, core.WithHandlerLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		b.Fatal(err)
	}
	lg, err := resume.NewMemoryLog(resume.WithMemoryBytes(1<<34), resume.WithMemoryRetention(time.Second))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = lg.Close() })
	rh, err := resume.New(h, lg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = rh.Close(context.Background()) })
	return h, rh
}

// serveBenchRun serves one run with id to h, and fails b unless it ended
// in success.
func serveBenchRun(b *testing.B, h http.Handler, id string) {
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{"threadId":"t`+id+`","runId":"r`+id+`","protocolVersion":"1.0","messages":[]}`))
	req.Header.Set("Content-Type", "application/json")
	w := &tailWriter{header: http.Header{}}
	h.ServeHTTP(w, req)
	if !bytes.Contains(w.tail, []byte(`"RUN_FINISHED"`)) {
		b.Fatalf("the stream ends %q, not with RUN_FINISHED", w.tail)
	}
}
