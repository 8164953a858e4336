package loop

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

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
	batchClient // frontend calls await the client
	batchAborted
	batchFailed
)

// completion is a finished call, sent by its goroutine.
type completion struct {
	i   int
	out string
	err error
	// timedOut: the call outlived its [WithToolTimeout].
	timedOut bool
}

// runBatch runs msg's calls from index first, as the loop's contract says: calls start
// in call order, each after its gate (events, WithOnToolCall, validation,
// WithPreToolCall, WithNeedsApproval) ran on this goroutine; at most
// WithToolConcurrency run at once; results are emitted as they complete and
// appended to the transcript in call order, checkpointing each time the
// answered prefix grows. It returns only once every call it started has
// returned.
//
// A decision recorded in r.cp.Pending answers its call, which skips its
// WithOnToolCall and approval check (they ran in the run that paused on it).
func (r *run) runBatch(ctx context.Context, msg *agui.AssistantMessage, first int) (batchEnd, error) {
	calls := msg.ToolCalls[first:]
	n := len(calls)
	results := make([]*agui.ToolMessage, n)
	done := make(chan completion, n) // buffered: a tool never blocks on a batch that stopped reading
	// issued is each call as its gate left it.
	issued := make([]Call, n)
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
		res, err := r.after(ctx, issued[i], res)
		if err != nil && fatal == nil {
			fatal = err
		}
		results[i] = res
		r.emit(&agui.ToolCallResult{MessageID: res.ID, ToolCallID: res.ToolCallID, Content: res.Content, Role: agui.RoleTool})
		flush()
	}
	settle := func(c completion) {
		running--
		switch {
		case c.timedOut:
			record(c.i, r.errorResult(calls[c.i].ID, KindTimeout, r.timeoutText()))
		case c.err == nil:
			record(c.i, r.toolResult(calls[c.i].ID, c.out))
		case ctx.Err() != nil:
			// The tool's context is done: whatever it returned (ctx.Err(),
			// the cause, its own wrapping), it stopped on the abort.
			// Its error's text goes to the log only (see toolerror.go).
			r.logToolError(ctx, issued[c.i], c.err, "tool call cancelled")
			record(c.i, r.errorResult(calls[c.i].ID, KindCancelled, "cancelled: the run was aborted"))
		default:
			if isPropagating(c.err) && fatal == nil {
				fatal = runError(CodeTool, c.err)
			}
			record(c.i, r.failedResult(ctx, issued[c.i], c.err))
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
					if err := r.tick(ctx); err != nil {
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
		issued[i] = call
		if res := r.takeParked(call.ID); res != nil {
			// Answered while the batch waited on an earlier call (or by
			// the client): it joins the transcript in call order.
			if r.announce[call.ID] {
				r.emitCall(msg.ID, call, r.clientCalls[call.ID])
				record(i, res)
			} else {
				results[i] = res
				flush()
			}
			continue
		}
		tool, res, client, err := r.gate(ctx, msg.ID, &call)
		issued[i] = call
		switch {
		case err != nil:
			fatal = err
			if res != nil {
				record(i, res)
			}
		case res != nil:
			record(i, res)
			continue
		case client:
			r.cp.ClientCalls = append(slices.Clip(r.cp.ClientCalls), call.ID)
			continue
		case tool == nil:
			paused = i
		}
		if fatal != nil || paused >= 0 {
			break
		}
		running++
		tctx := withScope(ctx, scope{sink: r.sink, line: r.line, toolCallID: call.ID, messageID: msg.ID, thread: r.thread, store: r.a.cfg.store, delegated: &r.delegated, call: r.callInfo(call), st: r.st, answer: r.answers[call.ID]})
		go func() {
			tctx, stop := r.toolDeadline(tctx)
			out, err := tool.call(tctx, call.Args)
			timedOut := stop()
			done <- completion{i: i, out: out, err: err, timedOut: timedOut}
		}()
	}
	for running > 0 {
		await()
	}

	switch {
	case fatal != nil:
		// Every call got a result, so no approval (asked or answered)
		// and no frontend call stays pending in the idle checkpoint.
		r.cp.Pending, r.cp.ClientCalls = nil, nil
		r.fill(results, calls, &prefix, KindNotRun, "not run: the run failed first")
		return batchFailed, fatal
	case ctx.Err() != nil:
		r.cp.Pending, r.cp.ClientCalls = nil, nil
		r.fill(results, calls, &prefix, KindCancelled, "cancelled: the run was aborted before this call started")
		return batchAborted, nil
	case paused >= 0:
		r.park(results, prefix)
		return batchPaused, nil
	case len(r.cp.ClientCalls) > 0:
		r.park(results, prefix)
		return batchClient, nil
	}
	return batchDone, nil
}

// fill gives every unanswered call an error result, so that the transcript
// stays valid for the provider, and appends them.
func (r *run) fill(results []*agui.ToolMessage, calls []agui.ToolCall, prefix *int, kind ToolErrorKind, text string) {
	for i := *prefix; i < len(calls); i++ {
		if results[i] == nil {
			results[i] = r.takeParked(calls[i].ID)
		}
		if results[i] == nil {
			results[i] = r.errorResult(calls[i].ID, kind, text)
		}
		r.cp.Messages = append(r.cp.Messages, results[i])
	}
	*prefix = len(calls)
	r.cp.Parked = nil
}

// gate runs a call's gate. It returns the tool to start, or a result that
// answers the call without starting it, or client for a frontend call the
// client runs, or none of them when the call pauses for approval
// (r.cp.Pending is then set), or a propagating error.
func (r *run) gate(ctx context.Context, parentID string, call *Call) (*Tool, *agui.ToolMessage, bool, error) {
	p := r.cp.Pending
	answered := p != nil && p.Decision != nil && p.ToolCallID == call.ID
	var denied *agui.ToolMessage
	if answered {
		res, err := r.answer(parentID, call, p.Decision)
		if err != nil {
			r.cp.Pending = nil
			r.emitCall(parentID, *call, r.clientCalls[call.ID])
			return nil, res, false, err
		}
		if d := p.Decision; d.Approved && d.Args != nil && r.a.cfg.beforeToolCall != nil {
			// Arguments the approver wrote are new arguments: they pass
			// through [WithBeforeToolCall] like the model's, or an edit would
			// bypass a hook that denies or rewrites them.
			if tool, ok := r.lookupTool(call.Name); ok && tool.validate(call.Args) == nil {
				before := string(call.Args)
				res, err := r.before(ctx, parentID, call)
				if err != nil {
					r.cp.Pending = nil
					return nil, nil, false, err
				}
				denied = res
				if string(call.Args) != before && r.clientCalls[call.ID] {
					r.snapshotTranscript()
				}
			}
		}
	} else if r.a.cfg.beforeToolCall != nil {
		// [WithBeforeToolCall] goes first, so that the client is shown the call
		// as it will run.
		if tool, ok := r.lookupTool(call.Name); ok && tool.validate(call.Args) == nil {
			res, err := r.before(ctx, parentID, call)
			if err != nil {
				return nil, nil, false, err
			}
			denied = res
		}
	}
	// An answered call's events went out in the run that paused on it;
	// START and END go out again because a result must name a call of its
	// own run, and the arguments too unless the client already holds them.
	r.emitCall(parentID, *call, answered && r.clientCalls[call.ID])
	if !answered {
		if f := r.a.cfg.onToolCall; f != nil {
			if err := guard(func() error { f(ctx, *call); return nil }); err != nil {
				return nil, nil, false, runError(CodeTool, err)
			}
		}
	} else {
		r.cp.Pending = nil
		if p.Question && p.Decision.Approved {
			r.keepAnswer(call.ID, p.Decision.Answer)
		}
		if !p.Decision.Approved {
			text := "rejected by user"
			if p.Decision.Reason != "" {
				text += ": " + p.Decision.Reason
			}
			return nil, r.errorResult(call.ID, KindRejected, text), false, nil
		}
	}
	if denied != nil {
		return nil, denied, false, nil
	}
	if _, ok := r.frontend[call.Name]; ok && !answered {
		// The client runs it: it is neither validated nor approved here.
		return nil, nil, true, nil
	}
	tool, ok := r.lookupTool(call.Name)
	if !ok {
		return nil, r.errorResult(call.ID, KindNotFound, "no tool named "+call.Name), false, nil
	}
	if err := tool.validate(call.Args); err != nil {
		return nil, r.errorResult(call.ID, KindValidation, err.Error()), false, nil
	}
	if f := r.a.cfg.preToolCall; f != nil {
		if err := guard(func() error { return f(ctx, *call) }); err != nil {
			return nil, nil, false, runError(CodeTool, err)
		}
	}
	needs := !answered && tool.question != nil
	if f := r.a.cfg.needsApproval; !answered && !needs && f != nil {
		if err := guard(func() error { needs = f(*call); return nil }); err != nil {
			return nil, nil, false, runError(CodeTool, err)
		}
	}
	if needs {
		r.cp.Pending = r.pending(call.ID)
		r.cp.Pending.Question = tool.question != nil
		return nil, nil, false, nil
	}
	return &tool, nil, false, nil
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
	return &agui.ToolMessage{ID: newID("result"), ToolCallID: callID, Content: agui.TextContent(out)}
}

func (r *run) errorResult(callID string, kind ToolErrorKind, text string) *agui.ToolMessage {
	b, _ := json.Marshal(struct {
		Error   ToolErrorKind `json:"error"`
		Message string        `json:"message"`
	}{kind, text}) // marshalling two strings cannot fail
	return &agui.ToolMessage{ID: newID("result"), ToolCallID: callID, Content: agui.TextContent(string(b)), Error: text}
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
