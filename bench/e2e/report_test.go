package e2e_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/agui-go/agui/bench/e2e"
)

func ExampleWriteDisconnect() {
	e2e.WriteDisconnect(os.Stdout, []e2e.NamedDisconnect{{Server: "gin", DisconnectResult: e2e.DisconnectResult{
		HangUps: 4, Latency: []time.Duration{100 * time.Microsecond, 200 * time.Microsecond, 300 * time.Microsecond, 2 * time.Millisecond},
	}}})
	// Output:
	// | server | hang-ups | failures | p50 | p99 | max |
	// |---|---:|---:|---:|---:|---:|
	// | gin | 4 | 0 | 300.0 µs | 2000.0 µs | 2000.0 µs |
}

func ExampleWriteIdle() {
	e2e.WriteIdle(os.Stdout, []e2e.NamedIdle{{Server: "community", IdleResult: e2e.IdleResult{
		Streams: 1000, Before: 10 << 20, Open: 40 << 20,
	}}})
	// Output:
	// | server | idle streams | failures | RSS before | RSS with all open | RSS per stream |
	// |---|---:|---:|---:|---:|---:|
	// | community | 1000 | 0 | 10.0 MiB | 40.0 MiB | 30.7 KiB |
}

func TestWriteComparisonGivesRatiosOfOursToPeers(t *testing.T) {
	row := func(server string, cpu time.Duration, p99 time.Duration) e2e.Row {
		return e2e.Row{Server: server, Concurrency: 16, CPU: cpu * 1000,
			Sample: e2e.Sample{Streams: 1, Events: 1000, Elapsed: time.Second, TTFE: []time.Duration{p99}}}
	}
	var b strings.Builder
	e2e.WriteComparison(&b, []e2e.Row{
		row(e2e.ServerGin, 500, time.Millisecond),
		row(e2e.ServerCommunity, 2000, 4*time.Millisecond),
		row(e2e.ServerNode, 1000, 2*time.Millisecond),
	})
	out := b.String()
	for _, want := range []string{
		"| 16 | gin | 1 | 0 | 1,000 | 1.00 ms | 1.00 ms | 0.0 MiB | 500 ns |",
		"| 16 | gin | 0.25 | 0.50 | 0.25 | 0.50 |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "| 16 | nethttp |") {
		t.Errorf("a ratio row for a server that did not run:\n%s", out)
	}
}
