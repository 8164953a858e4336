package e2e

import (
	"context"
	"errors"
	"io"
	"time"
)

// DeltasResult is one stream of one-byte deltas through ours on Gin.
// Values are immutable.
type DeltasResult struct {
	Deltas int
	Sample
	// CPU is the server process's CPU time during the stream.
	CPU time.Duration
}

// Deltas starts a fresh Gin server process, whose PathDeltas route must
// stream n deltas (the Launcher's deltas), warms it up with one stream,
// and measures one more.
func Deltas(ctx context.Context, launch Launcher, n int, stderr io.Writer) (res DeltasResult, err error) {
	p, err := startNamed(ctx, launch, ServerGin, stderr)
	if err != nil {
		return DeltasResult{}, err
	}
	defer func() { err = errors.Join(err, p.Stop()) }()
	// One stream per run: no second stream starts once Duration is over.
	l := Load{URL: "http://" + p.Addr + PathDeltas, Events: DeltaEvents(n), Duration: time.Nanosecond}
	if _, err := l.Run(ctx); err != nil {
		return DeltasResult{}, err
	}
	cpu0, err := p.CPU()
	if err != nil {
		return DeltasResult{}, err
	}
	s, err := l.Run(ctx)
	if err != nil {
		return DeltasResult{}, err
	}
	cpu1, err := p.CPU()
	if err != nil {
		return DeltasResult{}, err
	}
	res = DeltasResult{Deltas: n, Sample: s, CPU: cpu1 - cpu0}
	if s.Failures > 0 {
		return res, errors.New("e2e: the deltas stream failed: " + s.Errors[0])
	}
	return res, nil
}
