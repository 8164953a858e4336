package loop

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agui-go/agui"
)

// ToolErrorKind classifies a tool call's error result.
type ToolErrorKind string

// The kinds of error results.
const (
	KindExecution  ToolErrorKind = "execution"  // the tool returned an error
	KindValidation ToolErrorKind = "validation" // arguments did not fit the schema
	KindNotFound   ToolErrorKind = "not-found"  // no tool of that name
	KindRejected   ToolErrorKind = "rejected"   // the user did not approve the call
	KindCancelled  ToolErrorKind = "cancelled"  // the run was aborted first
	KindNotRun     ToolErrorKind = "not-run"    // a propagating error stopped the batch first
)

// batchEnd is how a batch ended.
type batchEnd int

const (
	batchDone batchEnd = iota
	batchPaused
	batchAborted
	batchFailed
)

// completion is a finished call, sent by its goroutine.
type completion struct {
	i   int
	out string
	err error
}

// runBatch runs msg's calls from index first, as seed 001 says: calls start
// in call order, each after its gate (events, OnToolCall, validation,
// PreToolCall, NeedsApproval) ran on this goroutine; at most
// ToolConcurrency run at once; results are emitted as they complete and
// appended to the transcript in call order, checkpointing each time the
// answered prefix grows. It returns only once every call it started has
// returned.
//
// A decision recorded in r.cp.Pending answers its call, which skips its
// OnToolCall and approval check (they ran in the run that paused on it).
func (r *run) runBatch(ctx context.Context, msg *agui.AssistantMessage, first int) (batchEnd, error) {
	calls := msg.ToolCalls[first:]
	n := len(calls)
	results := make([]*agui.ToolMessage, n)
	done := make(chan completion, n) // buffered: a tool never blocks on a batch that stopped reading
	var (
		running, prefix int
		fatal           error
		paused          = -1
	)
	flush := func() {
		grew := false
		for prefix < n && results[prefix] != nil {
			r.cp.Messages = append(r.cp.Messages, results[prefix])
			prefix++
			grew = true
		}
		if grew && fatal == nil {
			if err := r.checkpoint(ctx); err != nil {
				fatal = err
			}
		}
	}
	record := func(i int, res *agui.ToolMessage) {
		results[i] = res
		r.emit(&agui.ToolCallResult{MessageID: res.ID, ToolCallID: res.ToolCallID, Content: res.Content, Role: agui.RoleTool})
		flush()
	}
	settle := func(c completion) {
		running--
		switch {
		case c.err == nil:
			record(c.i, r.toolResult(calls[c.i].ID, c.out))
		case ctx.Err() != nil:
			// The tool's context is done: whatever it returned (ctx.Err(),
			// the cause, its own wrapping), it stopped on the abort.
			record(c.i, r.errorResult(calls[c.i].ID, KindCancelled, "cancelled: "+agui.ErrorText(c.err)))
		default:
			if isPropagating(c.err) && fatal == nil {
				fatal = runError(CodeTool, c.err)
			}
			record(c.i, r.errorResult(calls[c.i].ID, KindExecution, agui.ErrorText(c.err)))
		}
	}
	// await settles the next completion, renewing the run's lease while
	// it waits; a failed renewal stops the batch like a propagating error.
	await := func() {
		for {
			select {
			case c := <-done:
				settle(c)
				return
			case <-r.renewals():
				if fatal == nil {
					if err := r.checkpoint(ctx); err != nil {
						fatal = err
					}
				}
			}
		}
	}
	drain := func() {
		for {
			select {
			case c := <-done:
				settle(c)
			default:
				return
			}
		}
	}

	for i := 0; i < n; i++ {
		for running >= r.a.cfg.concurrency {
			await()
		}
		drain()
		if fatal != nil || ctx.Err() != nil {
			break
		}
		call := Call{ID: calls[i].ID, Name: calls[i].Function.Name, Args: json.RawMessage(calls[i].Function.Arguments), Index: first + i}
		tool, res, err := r.gate(ctx, msg.ID, call)
		switch {
		case err != nil:
			fatal = err
		case res != nil:
			record(i, res)
			continue
		case tool == nil:
			paused = i
		}
		if fatal != nil || paused >= 0 {
			break
		}
		running++
		tctx := withScope(ctx, scope{sink: r.sink, line: r.line, toolCallID: call.ID, messageID: msg.ID, thread: r.thread, delegated: &r.delegated})
		go func() {
			out, err := tool.call(tctx, call.Args)
			done <- completion{i: i, out: out, err: err}
		}()
	}
	for running > 0 {
		await()
	}

	switch {
	case fatal != nil:
		// Every call got a result, so no approval (asked or answered)
		// stays pending in the idle checkpoint.
		r.cp.Pending = nil
		r.fill(results, calls, &prefix, KindNotRun, "not run: the run failed first")
		return batchFailed, fatal
	case ctx.Err() != nil:
		r.cp.Pending = nil
		r.fill(results, calls, &prefix, KindCancelled, "cancelled: the run was aborted before this call started")
		return batchAborted, nil
	case paused >= 0:
		return batchPaused, nil
	}
	return batchDone, nil
}

// fill gives every unanswered call an error result, so that the transcript
// stays valid for the provider, and appends them.
func (r *run) fill(results []*agui.ToolMessage, calls []agui.ToolCall, prefix *int, kind ToolErrorKind, text string) {
	for i := *prefix; i < len(calls); i++ {
		if results[i] == nil {
			results[i] = r.errorResult(calls[i].ID, kind, text)
		}
		r.cp.Messages = append(r.cp.Messages, results[i])
	}
	*prefix = len(calls)
}

// gate runs a call's gate. It returns the tool to start, or a result that
// answers the call without starting it, or neither when the call pauses for
// approval (r.cp.Pending is then set), or a propagating error.
func (r *run) gate(ctx context.Context, parentID string, call Call) (*Tool, *agui.ToolMessage, error) {
	p := r.cp.Pending
	answered := p != nil && p.Decision != nil && p.ToolCallID == call.ID
	// An answered call's events went out in the run that paused on it;
	// START and END go out again because a result must name a call of its
	// own run, and the arguments too unless the client already holds them.
	r.emitCall(parentID, call, answered && r.clientCalls[call.ID])
	if !answered {
		if f := r.a.cfg.onToolCall; f != nil {
			if err := guard(func() error { f(ctx, call); return nil }); err != nil {
				return nil, nil, runError(CodeTool, err)
			}
		}
	} else {
		r.cp.Pending = nil
		if !p.Decision.Approved {
			text := "rejected by user"
			if p.Decision.Reason != "" {
				text += ": " + p.Decision.Reason
			}
			return nil, r.errorResult(call.ID, KindRejected, text), nil
		}
	}
	tool, ok := r.a.tools[call.Name]
	if !ok {
		return nil, r.errorResult(call.ID, KindNotFound, "no tool named "+call.Name), nil
	}
	if err := tool.validate(call.Args); err != nil {
		return nil, r.errorResult(call.ID, KindValidation, err.Error()), nil
	}
	if f := r.a.cfg.preToolCall; f != nil {
		if err := guard(func() error { return f(ctx, call) }); err != nil {
			return nil, nil, runError(CodeTool, err)
		}
	}
	var needs bool
	if f := r.a.cfg.needsApproval; !answered && f != nil {
		if err := guard(func() error { needs = f(call); return nil }); err != nil {
			return nil, nil, runError(CodeTool, err)
		}
	}
	if needs {
		r.cp.Pending = &PendingApproval{InterruptID: r.sink.newID("approval"), ToolCallID: call.ID}
		return nil, nil, nil
	}
	return &tool, nil, nil
}

// emitCall sends a call's START/ARGS/END, replaying the model's argument
// fragments when this run streamed them. Without args it sends START and
// END only, for a call whose arguments the client already holds.
func (r *run) emitCall(parentID string, call Call, withoutArgs bool) {
	r.emit(&agui.ToolCallStart{ToolCallID: call.ID, ToolCallName: call.Name, ParentMessageID: parentID})
	if withoutArgs {
		r.emit(&agui.ToolCallEnd{ToolCallID: call.ID})
		return
	}
	deltas, ok := r.argDeltas[call.ID]
	if !ok && len(call.Args) > 0 {
		deltas = []string{string(call.Args)}
	}
	for _, d := range deltas {
		r.emit(&agui.ToolCallArgs{ToolCallID: call.ID, Delta: d})
	}
	r.emit(&agui.ToolCallEnd{ToolCallID: call.ID})
}

func (r *run) toolResult(callID, out string) *agui.ToolMessage {
	return &agui.ToolMessage{ID: r.sink.newID("result"), ToolCallID: callID, Content: agui.TextContent(out)}
}

func (r *run) errorResult(callID string, kind ToolErrorKind, text string) *agui.ToolMessage {
	b, _ := json.Marshal(struct {
		Error   ToolErrorKind `json:"error"`
		Message string        `json:"message"`
	}{kind, text}) // marshalling two strings cannot fail
	return &agui.ToolMessage{ID: r.sink.newID("result"), ToolCallID: callID, Content: agui.TextContent(string(b)), Error: text}
}

// guard runs a hook, turning a panic into an error: a hook panicking on
// the loop's goroutine would otherwise leave running tools detached.
func guard(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("hook panicked: %v", p)
		}
	}()
	return f()
}
