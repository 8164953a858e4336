package main

import (
	"context"
	"strconv"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// slowAgent streams one delta every interval for total: a long run for
// trying disconnects and shutdown. It stops as soon as ctx is cancelled.
func slowAgent(interval, total time.Duration) core.Agent[core.NoState] {
	return core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		m, err := rc.Message()
		if err != nil {
			return agui.Outcome{}, err
		}
		tick := time.NewTicker(interval)
		defer tick.Stop()
		deadline := time.Now().Add(total)
		for i := 1; ; i++ {
			select {
			case <-ctx.Done():
				// The cause says why: the client left, or the server is
				// shutting down.
				return agui.Outcome{}, context.Cause(ctx)
			case now := <-tick.C:
				if err := m.Delta(strconv.Itoa(i) + " "); err != nil {
					return agui.Outcome{}, err
				}
				if !now.Before(deadline) {
					if err := m.End(); err != nil {
						return agui.Outcome{}, err
					}
					return agui.Success(), nil
				}
			}
		}
	})
}
