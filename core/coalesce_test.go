package core_test

import (
	"context"
	"testing"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// coalesceRun starts a run of agent with options and returns its
// Consumer, which the test closes.
func coalesceRun(t *testing.T, agent core.AgentFunc[core.NoState], opts ...core.RunOption) *core.Consumer {
	t.Helper()
	run, err := core.NewRunner(agent, agui.NewInput("thread-1", "run-1"), opts...)
	if err != nil {
		t.Fatal(err)
	}
	c, err := run.Start(t.Context(), func(agui.Event) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// Events emitted under a hold do not wake the consumer; the release does,
// and they are taken together.
func TestCoalesceDefersWakeUntilRelease(t *testing.T) {
	emitted, released := make(chan struct{}), make(chan struct{})
	c := coalesceRun(t, func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		release := rc.Coalesce()
		m, err := rc.Message()
		if err != nil {
			return agui.Outcome{}, err
		}
		for _, d := range []string{"a", "b"} {
			if err := m.Delta(d); err != nil {
				return agui.Outcome{}, err
			}
		}
		close(emitted)
		<-released
		release()
		release() // a second call does nothing
		<-ctx.Done()
		return agui.Success(), m.End()
	})
	<-emitted
	select {
	case <-c.Ready():
		t.Fatal("the consumer was woken while the events were held")
	default:
	}
	close(released)
	<-c.Ready()
	if n := c.Take(); n != 3 {
		t.Fatalf("took %d events, want the 3 held", n)
	}
}

// A full queue wakes the consumer although a hold is in effect, so a held
// emitter never waits for room that only the consumer can make.
func TestCoalesceFullQueueWakes(t *testing.T) {
	c := coalesceRun(t, func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		defer rc.Coalesce()()
		for range 4 {
			if err := rc.Say("x"); err != nil {
				return agui.Outcome{}, err
			}
		}
		return agui.Success(), nil
	}, core.WithQueueSize(2))
	took := 0
	for ready := c.Ready(); ready != nil; ready = c.Ready() {
		<-ready
		took += c.Take()
	}
	if took != 4*3+1 { // three events a Say, and RUN_FINISHED
		t.Fatalf("took %d events", took)
	}
}
