package e2e

import (
	"fmt"
	"io"
	"slices"
	"time"
)

// WriteComparison writes Compare's rows as markdown: one table of figures
// and, per concurrency, the ratios of ours to each peer.
func WriteComparison(w io.Writer, rows []Row) {
	fmt.Fprintln(w, "| C | server | streams | failures | events/s | TTFE p50 | TTFE p99 | peak RSS | server CPU/event | per round |")
	fmt.Fprintln(w, "|---:|---|---:|---:|---:|---:|---:|---:|---:|---|")
	for _, r := range rows {
		rounds := ""
		for i, c := range r.RoundCPU {
			if i > 0 {
				rounds += " / "
			}
			rounds += ns(c)
		}
		fmt.Fprintf(w, "| %d | %s | %d | %d | %s | %s | %s | %.1f MiB | %s | %s |\n",
			r.Concurrency, r.Server, r.Streams, r.Failures, thousands(r.EventsPerSec()),
			ms(Percentile(r.TTFE, 50)), ms(Percentile(r.TTFE, 99)), float64(r.PeakRSS)/(1<<20), ns(r.CPUPerEvent()), rounds)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Ratios ours ÷ peer, from the rows above (below 1: ours is lower):")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| C | ours | CPU/event ÷ community | CPU/event ÷ node | TTFE p99 ÷ community | TTFE p99 ÷ node |")
	fmt.Fprintln(w, "|---:|---|---:|---:|---:|---:|")
	find := func(c int, name string) (Row, bool) {
		i := slices.IndexFunc(rows, func(r Row) bool { return r.Concurrency == c && r.Server == name })
		if i < 0 {
			return Row{}, false
		}
		return rows[i], true
	}
	var cs []int
	for _, r := range rows {
		if !slices.Contains(cs, r.Concurrency) {
			cs = append(cs, r.Concurrency)
		}
	}
	for _, c := range cs {
		for _, ours := range []string{ServerGin, ServerNetHTTP} {
			o, ok := find(c, ours)
			if !ok {
				continue
			}
			cells := [4]string{"–", "–", "–", "–"}
			for j, peer := range []string{ServerCommunity, ServerNode} {
				if p, ok := find(c, peer); ok {
					cells[j] = ratio(float64(o.CPUPerEvent()), float64(p.CPUPerEvent()))
					cells[j+2] = ratio(float64(Percentile(o.TTFE, 99)), float64(Percentile(p.TTFE, 99)))
				}
			}
			fmt.Fprintf(w, "| %d | %s | %s | %s | %s | %s |\n", c, ours, cells[0], cells[1], cells[2], cells[3])
		}
	}
	fmt.Fprintln(w)
}

// WriteIdle writes the idle-stream memory figures as markdown.
func WriteIdle(w io.Writer, res []NamedIdle) {
	fmt.Fprintln(w, "| server | idle streams | failures | RSS before | RSS with all open | RSS per stream |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|")
	for _, r := range res {
		fmt.Fprintf(w, "| %s | %d | %d | %.1f MiB | %.1f MiB | %.1f KiB |\n", r.Server, r.Streams, r.Failures,
			float64(r.Before)/(1<<20), float64(r.Open)/(1<<20), float64(r.PerStream())/1024)
	}
	fmt.Fprintln(w)
}

// WriteDeltas writes the one-byte-delta streams as markdown.
func WriteDeltas(w io.Writer, res []DeltasResult) {
	fmt.Fprintln(w, "| stream | deltas | events/s | server CPU/event | elapsed |")
	fmt.Fprintln(w, "|---:|---:|---:|---:|---:|")
	for i, r := range res {
		per := time.Duration(0)
		if r.Events > 0 {
			per = r.CPU / time.Duration(r.Events)
		}
		fmt.Fprintf(w, "| %d | %d | %s | %s | %s |\n", i+1, r.Deltas, thousands(r.EventsPerSec()), ns(per), r.Elapsed.Round(time.Millisecond))
	}
	fmt.Fprintln(w)
}

// NamedDisconnect is a DisconnectResult with the server it is of.
type NamedDisconnect struct {
	Server string
	DisconnectResult
}

// WriteDisconnect writes the hang-up to cancellation times as markdown.
func WriteDisconnect(w io.Writer, res []NamedDisconnect) {
	fmt.Fprintln(w, "| server | hang-ups | failures | p50 | p99 | max |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|")
	for _, r := range res {
		last := time.Duration(0)
		if len(r.Latency) > 0 {
			last = r.Latency[len(r.Latency)-1]
		}
		fmt.Fprintf(w, "| %s | %d | %d | %s | %s | %s |\n", r.Server, r.HangUps, r.Failures,
			us(Percentile(r.Latency, 50)), us(Percentile(r.Latency, 99)), us(last))
	}
	fmt.Fprintln(w)
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }

func us(d time.Duration) string { return fmt.Sprintf("%.1f µs", float64(d)/float64(time.Microsecond)) }

func ns(d time.Duration) string { return thousands(float64(d.Nanoseconds())) + " ns" }

func ratio(a, b float64) string {
	if b == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", a/b)
}

// thousands formats v rounded, with commas between groups of three digits.
func thousands(v float64) string {
	s := fmt.Sprintf("%.0f", v)
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		s = s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// WriteThreads writes the thread-length sweep (Compare rows of PathThread
// with Messages) as markdown: server CPU per request, per round, and each
// peer's CPU per request over ours (above 1: ours is cheaper).
func WriteThreads(w io.Writer, rows []Row) {
	fmt.Fprintln(w, "| messages | C | server | requests | failures | server CPU/request | per round | ÷ gin | ÷ nethttp |")
	fmt.Fprintln(w, "|---:|---:|---|---:|---:|---:|---|---:|---:|")
	find := func(n, c int, name string) (Row, bool) {
		i := slices.IndexFunc(rows, func(r Row) bool { return r.Messages == n && r.Concurrency == c && r.Server == name })
		if i < 0 {
			return Row{}, false
		}
		return rows[i], true
	}
	for _, r := range rows {
		rounds := ""
		for i, c := range r.RoundCPU {
			if i > 0 {
				rounds += " / "
			}
			rounds += us(c * ThreadEvents)
		}
		cells := [2]string{"–", "–"}
		for j, ours := range []string{ServerGin, ServerNetHTTP} {
			if o, ok := find(r.Messages, r.Concurrency, ours); ok {
				cells[j] = ratio(float64(r.CPUPerStream()), float64(o.CPUPerStream()))
			}
		}
		fmt.Fprintf(w, "| %s | %d | %s | %d | %d | %s | %s | %s | %s |\n", thousands(float64(r.Messages)), r.Concurrency, r.Server,
			r.Streams, r.Failures, us(r.CPUPerStream()), rounds, cells[0], cells[1])
	}
	fmt.Fprintln(w)
}

// WriteTokens writes the token path's figures as markdown: server CPU per
// delivered model token beside the plain route's CPU per event, in the
// same server process, and their ratio.
func WriteTokens(w io.Writer, res []TokenResult) {
	fmt.Fprintln(w, "| server | tokens/run | tokens/write | runs | failures | tokens/s | server CPU/token | plain CPU/event | token ÷ event |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, r := range res {
		rate := 0.0
		if r.Runs.Elapsed > 0 {
			rate = float64(r.Runs.Streams-r.Runs.Failures) * float64(r.Tokens) / r.Runs.Elapsed.Seconds()
		}
		fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %s | %s | %s | %s |\n", r.Server, r.Tokens, r.Flush, r.Runs.Streams,
			r.Runs.Failures+r.Plain.Failures, thousands(rate), ns(r.CPUPerToken()), ns(r.CPUPerEvent()),
			ratio(float64(r.CPUPerToken()), float64(r.CPUPerEvent())))
	}
	fmt.Fprintln(w)
}
