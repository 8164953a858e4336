package loop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
)

// delegateArgs is the input of a delegation tool.
type delegateArgs struct {
	Task string `json:"task" jsonschema:"what the subagent should do, self-contained"`
}

// Delegate returns a tool named name that runs sub as a subagent on the
// model's task and returns the subagent's final text (its typed output as
// JSON, when sub has one: see [WithOutput]). The subagent's
// events are SUBAGENT_* events attributed to it, under the calling tool
// call; it runs on the tool's context, so it is aborted with its parent.
// A delegation deeper than the top-level agent's [WithMaxDelegationDepth] fails
// the whole run with [CodeDepth] (a propagating error). The guard bounds
// nesting, not fan-out: each level may still delegate once per tool call,
// [WithToolConcurrency] at a time, for up to [WithMaxSteps] turns, so the runs of a
// tree multiply level by level; bound the breadth with WithMaxSteps,
// WithToolConcurrency, or a [WithPreToolCall] hook that counts delegations. A
// subagent that pauses for approval fails the call: nested approvals are
// not supported.
func Delegate(name, description string, sub *Agent) (Tool, error) {
	if sub == nil {
		return Tool{}, errors.New("loop: Delegate " + name + ": nil agent")
	}
	return NewTool(name, description, func(ctx context.Context, in delegateArgs) (string, error) {
		sc, ok := scopeOf(ctx)
		if ok {
			return delegate(ctx, sc, name, sub, in.Task)
		}
		// Called outside a loop (say, directly in a test): a top-level
		// core run of its own, whose events go nowhere, hosts the call,
		// so the subagent's events still take the one verified path.
		var (
			out string
			err error
		)
		herr := host(ctx, newID("thread"), newID("run"), sub.cfg.logger, nil, func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
			out, err = delegate(ctx, scope{sink: sink{rc.Emitter}, line: lineage{maxDepth: sub.cfg.maxDepth}, thread: rc.Input().ThreadID, toolCallID: newID("call")}, name, sub, in.Task)
			return agui.Success(), nil
		})
		if herr != nil {
			return "", herr
		}
		return out, err
	})
}

// delegate runs sub on task as a subagent of the call sc describes.
func delegate(ctx context.Context, sc scope, name string, sub *Agent, task string) (string, error) {
	line := lineage{depth: sc.line.depth + 1, maxDepth: sc.line.maxDepth}
	if line.depth > line.maxDepth {
		return "", Propagate(agui.NewError(CodeDepth, fmt.Sprintf("delegation to %s exceeds the maximum depth %d", name, line.maxDepth)))
	}
	ss, err := sc.sink.subagent(name, sc.toolCallID, sc.messageID)
	if err != nil {
		return "", err
	}
	thread := sc.thread + "/" + sc.toolCallID
	res, err := sub.execute(ctx, Input{ThreadID: thread, Messages: []agui.Message{UserText(task)}}, ss.sink, line, nil)
	if sc.delegated != nil {
		sc.delegated.add(res.Usage)
	}
	if err == nil {
		// The subagent's thread lives as long as its call: once the
		// call has its result (even a cancelled one) the thread is
		// never resumed, so its checkpoint would only pile up. A
		// failed run may not own the thread (THREAD_BUSY), so it
		// leaves it alone.
		_ = sub.cfg.store.Delete(context.WithoutCancel(ctx), thread) // a leftover checkpoint is harmless
	}
	switch {
	case err != nil:
		_ = ss.fail(err) // the call's own error says more than a failed event would
		if agui.CodeOf(err) == CodeDepth || isPropagating(err) {
			return "", Propagate(err)
		}
		return "", err
	case res.FinishReason == FinishAborted:
		_ = ss.fail(agui.NewError(agui.CodeCancelled, "subagent aborted"))
		return "", fmt.Errorf("subagent %s aborted: %w", name, ctx.Err())
	case res.FinishReason == FinishAwaitingApproval:
		err := fmt.Errorf("subagent %s needs approval, which delegation does not support", name)
		_ = ss.fail(err)
		return "", err
	}
	if res.Output != nil {
		// A typed subagent ([WithOutput]) answers with its checked value.
		b, err := json.Marshal(res.Output)
		if err != nil {
			return "", fmt.Errorf("subagent %s: encoding output: %w", name, err)
		}
		if err := ss.finish(res.Output); err != nil {
			return "", err
		}
		return string(b), nil
	}
	text := finalText(res.Messages)
	if err := ss.finish(text); err != nil {
		return "", err
	}
	return text, nil
}

// finalText is the text of the transcript's last assistant message.
func finalText(msgs []agui.Message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if am, ok := msgs[i].(*agui.AssistantMessage); ok {
			return am.Content
		}
	}
	return ""
}
