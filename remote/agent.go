package remote

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/client"
	"github.com/agui-go/agui/core"
)

// Agent is a [core.Agent] whose runs run on a remote AG-UI agent. Its
// state type is [json.RawMessage]: the state is the remote's, passed on
// as it came, and the route declares state snapshots and deltas.
//
// An Agent is safe for concurrent use, as its [client.Agent] is.
type Agent struct {
	c *client.Agent
}

var _ core.Agent[json.RawMessage] = (*Agent)(nil)

// New returns the agent that runs each run on c.
func New(c *client.Agent) (*Agent, error) {
	if c == nil {
		return nil, errors.New("remote: New: nil client")
	}
	return &Agent{c: c}, nil
}

// Run runs the run on the remote agent: it posts the run's input as it
// came and emits the remote's events between its RUN_STARTED and its
// terminal event; see the package documentation for the outcome and the
// errors.
func (a *Agent) Run(ctx context.Context, rc *core.RunContext[json.RawMessage]) (agui.Outcome, error) {
	for ev, err := range a.c.Events(ctx, rc.Input(), nil) {
		if err != nil {
			return agui.Outcome{}, remoteError(err)
		}
		switch e := ev.(type) {
		case *agui.RunStarted:
		case *agui.RunFinished:
			if e.Result != nil {
				rc.SetResult(e.Result)
			}
			rc.AddUsage(e.Usage...)
			if e.Outcome == nil {
				return agui.Success(), nil
			}
			return *e.Outcome, nil
		case *agui.RunError:
			return agui.Outcome{}, runError(e)
		default:
			if err := rc.Emit(ev); err != nil {
				return agui.Outcome{}, err
			}
		}
	}
	// The client reports a stream without its terminal event; this is
	// only reached if it ever stops without saying so.
	return agui.Outcome{}, agui.NewError(CodeConnection, "remote: the stream ended before the remote run's terminal event")
}
