package loop

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/agui-go/agui"
)

// KindDenied is the kind of the error result a [WithBeforeToolCall] hook gives a
// call it denies.
const KindDenied ToolErrorKind = "denied"

// CallVerdict is what a [WithBeforeToolCall] hook decides about a call; the zero
// value lets the call go ahead unchanged. A plain value.
type CallVerdict struct {
	// Deny, when not empty, answers the call without running it: an error
	// result of kind "denied" whose message is Deny, which the model reads.
	Deny string
	// Args, when not nil, replaces the call's arguments. They are validated
	// against the tool's schema again (invalid ones give a validation
	// result), and the replaced call is what the client is shown, what the
	// transcript keeps and what runs.
	Args json.RawMessage
}

// WithBeforeToolCall is called for each call whose tool exists and whose
// arguments are valid, one call at a time, before its events go out and
// before [WithOnToolCall], [WithPreToolCall] and [WithNeedsApproval] (default none). It is
// not called again for a call an approval answers as the model asked it,
// but it is for one whose arguments the approver edited: edited arguments
// pass through it (and are validated against the schema) like the
// model's, so an edit cannot bypass a hook that denies them. Its verdict may
// deny the call or rewrite its arguments; an error stops the batch like a
// [WithPreToolCall] error, and the run fails with it. A run that takes a thread
// over after a crash passes the calls without a result through it again,
// with their arguments as last saved (perhaps already rewritten), so a
// rewrite should give the same arguments when applied twice.
func WithBeforeToolCall(f func(ctx context.Context, c Call) (CallVerdict, error)) Option {
	return func(c *config) error { c.beforeToolCall = f; return nil }
}

// CallResult is a call's result as a [WithAfterToolCall] hook sees and returns
// it; a plain value.
type CallResult struct {
	// Content is what the model reads and the client is sent; for an error
	// result, the JSON object {"error": kind, "message": text}.
	Content string
	// Error is the error text of an error result, "" for a success.
	Error string
	// Kind is the error result's kind, "" for a success; informational.
	Kind ToolErrorKind
}

// WithAfterToolCall is called with every result the batch records (a tool's
// output, and the error results of calls that did not run), one call at a
// time, before the result is emitted or recorded (default none). What it
// returns replaces the result, so it can redact or rewrite it; the results
// a failed or aborted batch gives its unreached calls do not pass through
// it. An error stops the batch like a [WithPreToolCall] error; the call's result
// is then withheld (replaced by an error result), never sent unfiltered.
func WithAfterToolCall(f func(ctx context.Context, c Call, r CallResult) (CallResult, error)) Option {
	return func(c *config) error { c.afterToolCall = f; return nil }
}

// WithBeforeModelCall is called before every model turn with the request the
// provider is about to get (default none). It returns the request to send
// instead: it can add context (a system message, retrieved documents),
// drop tools or change the instructions. Its change reaches the provider
// only: the transcript and the events are unchanged. It must not modify
// the request's slices in place (append to a clipped slice, or copy). An
// error fails the run with TOOL_ERROR.
func WithBeforeModelCall(f func(ctx context.Context, req ModelRequest) (ModelRequest, error)) Option {
	return func(c *config) error { c.beforeModelCall = f; return nil }
}

// prepareRequest applies [WithBeforeModelCall].
func (r *run) prepareRequest(ctx context.Context, req ModelRequest) (ModelRequest, error) {
	f := r.a.cfg.beforeModelCall
	if f == nil {
		return req, nil
	}
	err := guard(func() error {
		var err error
		req, err = f(ctx, req)
		return err
	})
	if err != nil {
		return req, runError(CodeTool, err)
	}
	return req, nil
}

// before applies [WithBeforeToolCall] to a call whose tool exists and whose
// arguments are valid: it returns a denial result, or rewrites *call.
func (r *run) before(ctx context.Context, parentID string, call *Call) (*agui.ToolMessage, error) {
	f := r.a.cfg.beforeToolCall
	var v CallVerdict
	if err := guard(func() error {
		var err error
		v, err = f(ctx, *call)
		return err
	}); err != nil {
		return nil, runError(CodeTool, err)
	}
	if v.Deny != "" {
		return r.errorResult(call.ID, KindDenied, v.Deny), nil
	}
	if v.Args != nil {
		r.rewriteArgs(parentID, call, v.Args)
	}
	return nil, nil
}

// rewriteArgs makes args the arguments of call: in the transcript (a new
// assistant message replaces the turn's; messages are never modified in
// place) and in the events still to go out.
func (r *run) rewriteArgs(parentID string, call *Call, args json.RawMessage) {
	call.Args = append(json.RawMessage(nil), args...)
	delete(r.argDeltas, call.ID)
	for i, m := range r.cp.Messages {
		am, ok := m.(*agui.AssistantMessage)
		if !ok || am.ID != parentID {
			continue
		}
		cp := *am
		cp.ToolCalls = slices.Clone(am.ToolCalls)
		for k := range cp.ToolCalls {
			if cp.ToolCalls[k].ID == call.ID {
				cp.ToolCalls[k].Function.Arguments = string(call.Args)
			}
		}
		msgs := slices.Clone(r.cp.Messages)
		msgs[i] = &cp
		r.cp.Messages = msgs
		return
	}
}

// after applies [WithAfterToolCall] to a result about to be recorded. A failing
// hook withholds the result.
func (r *run) after(ctx context.Context, call Call, res *agui.ToolMessage) (*agui.ToolMessage, error) {
	f := r.a.cfg.afterToolCall
	if f == nil {
		return res, nil
	}
	in := CallResult{Content: res.Content.String(), Error: res.Error}
	if res.Error != "" {
		var e struct {
			Error ToolErrorKind `json:"error"`
		}
		_ = json.Unmarshal([]byte(in.Content), &e) // the loop's own JSON
		in.Kind = e.Error
	}
	var out CallResult
	if err := guard(func() error {
		var err error
		out, err = f(ctx, call, in)
		return err
	}); err != nil {
		return r.errorResult(call.ID, KindExecution, "result withheld: the after-call hook failed"), runError(CodeTool, err)
	}
	if out.Content == in.Content && out.Error == in.Error {
		return res, nil
	}
	return &agui.ToolMessage{ID: res.ID, ToolCallID: res.ToolCallID, Content: agui.TextContent(out.Content), Error: out.Error}, nil
}
