package remote

import (
	"context"
	"errors"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/client"
	"github.com/agui-go/agui/loop"
	"github.com/google/uuid"
)

// toolArgs is the input of a remote delegation tool.
type toolArgs struct {
	Task string `json:"task" jsonschema:"what the remote agent should do, self-contained"`
}

// Tool returns a loop tool named name that delegates the model's task to
// the remote agent c, as [loop.Delegate] does to a local one: the task is
// the remote run's one user message, on a thread of its own per call
// (the calling thread's id, a slash and the call's id). The remote run's
// events appear under a SUBAGENT_STARTED named name, attributed to the
// calling tool call, and its SUBAGENT_FINISHED carries the remote's final
// text, which is the tool's result. The remote's state and message
// snapshots describe its own thread, not the caller's, so they are not
// passed on. The remote request runs on the tool's context, so it is
// cancelled with the call. A remote failure fails the invocation
// (SUBAGENT_ERROR) and the call, with the codes of [Agent]; a remote run
// that pauses on an interrupt fails them too, with [CodeRunError]: a
// delegation cannot be resumed. Called outside a loop's tool call, the
// tool fails with [loop.ErrNotInTool].
func Tool(name, description string, c *client.Agent) (loop.Tool, error) {
	if c == nil {
		return loop.Tool{}, errors.New("remote: Tool " + name + ": nil client")
	}
	return loop.NewTool(name, description, func(ctx context.Context, args toolArgs) (string, error) {
		call, ok := loop.CallFrom(ctx)
		if !ok {
			return "", loop.ErrNotInTool
		}
		sub, err := loop.Subagent(ctx, name)
		if err != nil {
			return "", err
		}
		text, err := delegate(ctx, c, sub.Emit, call, args.Task)
		if err != nil {
			_ = sub.Fail(err) // the call's own error says more than a failed event would
			return "", err
		}
		return text, sub.Finish(text)
	})
}

// delegate runs task on the remote agent, emitting its events with emit,
// and returns the remote's final text.
func delegate(ctx context.Context, c *client.Agent, emit func(agui.Event) error, call loop.CallInfo, task string) (string, error) {
	in := agui.NewInput(call.ThreadID+"/"+call.ID, "run-"+uuid.NewString())
	in.Messages = []agui.Message{loop.UserText(task)}
	view, err := client.NewView(in)
	if err != nil {
		return "", err
	}
	for ev, err := range c.Events(ctx, in, view) {
		if err != nil {
			return "", remoteError(err)
		}
		switch e := ev.(type) {
		case *agui.RunStarted, *agui.StateSnapshot, *agui.StateDelta, *agui.MessagesSnapshot:
		case *agui.RunError:
			return "", runError(e)
		case *agui.RunFinished:
			if e.Outcome != nil && e.Outcome.Type == agui.OutcomeInterrupt {
				return "", agui.NewError(CodeRunError, "remote: the remote run paused on an interrupt, which a delegation cannot answer")
			}
			return finalText(view.Messages), nil
		default:
			if err := emit(ev); err != nil {
				return "", err
			}
		}
	}
	return "", agui.NewError(CodeConnection, "remote: the stream ended before the remote run's terminal event")
}

// finalText is the text of the last assistant message.
func finalText(msgs []agui.Message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if am, ok := msgs[i].(*agui.AssistantMessage); ok {
			return am.Content
		}
	}
	return ""
}
