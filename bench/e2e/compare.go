package e2e

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"time"

	"github.com/agui-go/agui/internal/threadfixture"
)

// Launcher returns the command that starts the named server's process: a
// process speaking ServeMain's protocol.
type Launcher func(name string) (*exec.Cmd, error)

// Compare is the end-to-end comparison: for each concurrency, a fresh
// process per server, a warm-up of each, and then Rounds rounds in which
// every server in turn gets the same load, so that each ratio comes from
// one run on one machine state. The server first in a round moves along
// by one each round.
type Compare struct {
	// Servers to compare (default Servers()).
	Servers []string
	// Concurrency lists the numbers of concurrent streams (default 1).
	Concurrency []int
	// Rounds per concurrency (default 1).
	Rounds int
	// Duration of each server's turn in a round (default 1 s).
	Duration time.Duration
	// Warmup is each fresh server's load before the rounds, at the same
	// concurrency (default 0: none).
	Warmup time.Duration
	// Launch starts the servers (required).
	Launch Launcher
	// Stderr receives the servers' stderr (nil: discarded).
	Stderr io.Writer
	// Progress receives one line per turn (nil: none).
	Progress io.Writer
	// Path is the route loaded (default PathFixture), Events the number of
	// events of its complete stream (default FixtureEvents; negative: any)
	// and Messages the number of messages each request's thread carries
	// (threadfixture.Messages; 0: one user message).
	Path     string
	Events   int
	Messages int
}

// Row is one server at one concurrency, over all its rounds. Values are
// immutable.
type Row struct {
	Server      string
	Concurrency int
	// Messages is the number of messages of each request's thread (0:
	// one user message).
	Messages int
	Sample   // all rounds together; TTFE sorted
	// CPU is the server process's user plus system time during the rounds.
	CPU time.Duration
	// RoundCPU is the server's CPU time per delivered event in each round.
	RoundCPU []time.Duration
	// PeakRSS is the server process's peak resident set size (warm-up and
	// rounds at this concurrency).
	PeakRSS int64
}

// CPUPerEvent is the server's CPU time per delivered event.
func (r Row) CPUPerEvent() time.Duration {
	if r.Events == 0 {
		return 0
	}
	return r.CPU / time.Duration(r.Events)
}

// CPUPerStream is the server's CPU time per complete stream: per request.
func (r Row) CPUPerStream() time.Duration {
	if n := r.Streams - r.Failures; n > 0 {
		return r.CPU / time.Duration(n)
	}
	return 0
}

// Run runs the comparison and returns one row per server and concurrency,
// in that order. It stops at the first server that cannot start or
// serve; streams that fail are counted, not fatal.
func (c Compare) Run(ctx context.Context) ([]Row, error) {
	if c.Launch == nil {
		return nil, errors.New("e2e: Compare needs a Launcher")
	}
	if len(c.Servers) == 0 {
		c.Servers = Servers()
	}
	if len(c.Concurrency) == 0 {
		c.Concurrency = []int{1}
	}
	c.Rounds = max(c.Rounds, 1)
	if c.Duration <= 0 {
		c.Duration = time.Second
	}
	if c.Stderr == nil {
		c.Stderr = io.Discard
	}
	if c.Progress == nil {
		c.Progress = io.Discard
	}
	if c.Path == "" {
		c.Path = PathFixture
	}
	var rows []Row
	for _, conc := range c.Concurrency {
		got, err := c.at(ctx, conc)
		rows = append(rows, got...)
		if err != nil {
			return rows, err
		}
	}
	return rows, nil
}

// at runs the rounds at one concurrency.
func (c Compare) at(ctx context.Context, conc int) (rows []Row, err error) {
	procs := make([]*Process, 0, len(c.Servers))
	defer func() {
		for _, p := range procs {
			err = errors.Join(err, p.Stop())
		}
	}()
	for _, name := range c.Servers {
		p, err := startNamed(ctx, c.Launch, name, c.Stderr)
		if err != nil {
			return nil, err
		}
		procs = append(procs, p)
	}
	var messages []byte
	if c.Messages > 0 {
		messages = threadfixture.Messages(c.Messages)
	}
	load := func(p *Process, d time.Duration) Load {
		return Load{URL: "http://" + p.Addr + c.Path, Concurrency: conc, Duration: d, Events: c.Events, Messages: messages}
	}
	if c.Warmup > 0 {
		for _, p := range procs {
			if _, err := load(p, c.Warmup).Run(ctx); err != nil {
				return nil, err
			}
		}
	}
	rows = make([]Row, len(procs))
	for i, p := range procs {
		rows[i] = Row{Server: p.Name, Concurrency: conc, Messages: c.Messages}
	}
	for round := range c.Rounds {
		for k := range procs {
			i := (round + k) % len(procs)
			p := procs[i]
			cpu0, err := p.CPU()
			if err != nil {
				return nil, err
			}
			s, err := load(p, c.Duration).Run(ctx)
			if err != nil {
				return nil, err
			}
			cpu1, err := p.CPU()
			if err != nil {
				return nil, err
			}
			r := &rows[i]
			r.Sample = r.Sample.merge(s)
			r.Elapsed += s.Elapsed
			r.CPU += cpu1 - cpu0
			perEvent := time.Duration(0)
			if s.Events > 0 {
				perEvent = (cpu1 - cpu0) / time.Duration(s.Events)
			}
			r.RoundCPU = append(r.RoundCPU, perEvent)
			fmt.Fprintf(c.Progress, "%s n=%d C=%d round %d %-9s streams=%d failures=%d events/s=%.0f ttfe_p99=%s cpu/event=%s\n",
				c.Path, c.Messages, conc, round+1, p.Name, s.Streams, s.Failures, s.EventsPerSec(), Percentile(s.TTFE, 99).Round(time.Microsecond), perEvent)
		}
	}
	for i, p := range procs {
		slices.Sort(rows[i].TTFE)
		if rows[i].PeakRSS, err = p.PeakRSS(); err != nil {
			return rows, err
		}
	}
	return rows, nil
}
