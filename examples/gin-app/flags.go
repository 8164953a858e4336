package main

import (
	"errors"
	"flag"
	"time"
)

// flags are the command line's settings of the slow agent's pace and the
// resumable routes (grace period, replica name, lease), whether
// /metrics is served and the agent /agents/remote serves; main reads the
// others (-addr, -redis, -lease, ...) itself.
type flags struct {
	slowInterval time.Duration
	slowTotal    time.Duration
	grace        time.Duration
	replica      string
	runLease     time.Duration
	metrics      bool
	remoteURL    string
}

func (f *flags) register(fs *flag.FlagSet) {
	fs.DurationVar(&f.slowInterval, "slow-interval", 50*time.Millisecond, "time between the slow agent's deltas")
	fs.DurationVar(&f.slowTotal, "slow-total", 60*time.Second, "how long the slow agent streams")
	fs.DurationVar(&f.grace, "detach-grace", 30*time.Second, "how long a detached run waits for a client to come back (negative: until it ends)")
	fs.StringVar(&f.replica, "replica", "", "this replica's name in the run logs (default: random)")
	fs.BoolVar(&f.metrics, "metrics", false, "serve Prometheus metrics at GET /metrics (default off: they are for operators)")
	fs.StringVar(&f.remoteURL, "remote-url", "", "the AG-UI agent /agents/remote serves (default: this app's own /agents/editor)")
	fs.DurationVar(&f.runLease, "run-lease", 0, "how long a replica holds a resumable run without renewing it (default 10s)")
}

// apply sets cfg from f.
func (f *flags) apply(cfg *config) error {
	if f.slowInterval <= 0 || f.slowTotal <= 0 {
		return errors.New("-slow-interval and -slow-total must be positive")
	}
	cfg.slowInterval, cfg.slowTotal = f.slowInterval, f.slowTotal
	cfg.detachGrace, cfg.replica, cfg.leaseTTL = f.grace, f.replica, f.runLease
	cfg.metrics, cfg.remoteURL = f.metrics, f.remoteURL
	return nil
}
