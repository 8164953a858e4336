package core

import (
	"context"

	"github.com/agui-go/agui"
)

// Agent is an AG-UI agent whose shared state has type S ([NoState] for an
// agent that publishes none).
//
// Run is called once per run, on a goroutine the runner owns. ctx is
// cancelled when the run is cancelled (the client went away, the server is
// shutting down, or a transport called [Runner.Cancel]); pass it to every
// model and tool call. Run returns how the run ended, or an error, which
// the runner reports as RUN_ERROR. Anything Run leaves open (messages, tool
// calls, reasoning, steps, subagents) is closed by the runner before
// RUN_FINISHED.
//
// One Agent value may serve many runs at the same time, so Run must be safe
// for concurrent use; per-run state belongs in the [RunContext].
type Agent[S any] interface {
	Run(ctx context.Context, rc *RunContext[S]) (agui.Outcome, error)
}

// AgentFunc adapts a function to an [Agent]. It is as safe for concurrent
// use as the function is.
type AgentFunc[S any] func(ctx context.Context, rc *RunContext[S]) (agui.Outcome, error)

// Run calls f.
func (f AgentFunc[S]) Run(ctx context.Context, rc *RunContext[S]) (agui.Outcome, error) {
	return f(ctx, rc)
}

// NoState is the state type of agents that publish no state. For a
// RunContext[NoState], the input's state is ignored and UpdateState never
// emits anything.
type NoState struct{}
