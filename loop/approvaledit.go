package loop

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/agui-go/agui"
)

// WithApprovalTimeout gives each approval a deadline d after the run pauses on
// it (default none: an approval waits forever). The interrupt carries it
// as expiresAt. A resume that approves the call after the deadline does
// not run it: the call gets a rejected result, the batch's later calls a
// not-run one, and the run fails with APPROVAL_EXPIRED, leaving the thread
// idle for the next input. Rejecting or cancelling an expired approval is
// an ordinary rejection (the official client answers an expired interrupt
// with a cancelled entry).
func WithApprovalTimeout(d time.Duration) Option {
	return func(c *config) error {
		if d <= 0 {
			return fmt.Errorf("loop: WithApprovalTimeout %v: must be positive", d)
		}
		c.approvalTimeout = d
		return nil
	}
}

// pending returns the approval a call pauses on, with its deadline.
func (r *run) pending(callID string) *PendingApproval {
	p := &PendingApproval{InterruptID: newID("approval"), ToolCallID: callID}
	if d := r.a.cfg.approvalTimeout; d > 0 {
		p.ExpiresAt = r.clock.now().Add(d)
	}
	return p
}

// editedArgs reads the "arguments" of an approval's answer: a JSON object,
// or a string holding one (the form the interrupt's metadata shows them
// in); absent or null means none.
func editedArgs(raw json.RawMessage) (json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, agui.NewError(CodeBadResume, "resume payload: arguments: "+err.Error())
		}
		raw = json.RawMessage(s)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, agui.NewError(CodeBadResume, `resume payload: "arguments" must be a JSON object`)
	}
	return append(json.RawMessage(nil), raw...), nil
}

// checkDecision applies the deadline and checks edited arguments against
// the tool's schema, when the thread's pending approval was just
// answered. Invalid arguments fail the resume (BAD_RESUME) with nothing
// run and the approval still pending, so that the user can answer again.
func (r *run) checkDecision(now time.Time) error {
	p := r.cp.Pending
	if p == nil || p.Decision == nil {
		return nil
	}
	d := p.Decision
	if d.Approved && !p.ExpiresAt.IsZero() && now.After(p.ExpiresAt) {
		p.Decision = &Decision{Reason: "the approval expired at " + p.ExpiresAt.UTC().Format(time.RFC3339), Expired: true}
		return nil
	}
	if p.Question && d.Approved {
		return r.checkAnswer(p)
	}
	if !d.Approved || d.Args == nil {
		return nil
	}
	call := r.callByID(p.ToolCallID)
	tool, ok := r.lookupTool(call.Function.Name)
	if !ok {
		return nil // the call gets its not-found result
	}
	if err := tool.validate(d.Args); err != nil {
		return agui.NewError(CodeBadResume, "edited arguments of tool call "+p.ToolCallID+": "+err.Error())
	}
	return nil
}

// answer handles a call answered by an approval before its events go out:
// an edited call takes its new arguments (and a client that holds the
// call as the model asked gets a MESSAGES_SNAPSHOT with the edited one);
// an expired approval gives a rejected result and fails the run.
func (r *run) answer(parentID string, call *Call, d *Decision) (*agui.ToolMessage, error) {
	if d.Expired {
		return r.errorResult(call.ID, KindRejected, "rejected: "+d.Reason),
			agui.NewError(CodeApprovalExpired, "approval of tool call "+call.ID+" came too late: "+d.Reason)
	}
	if d.Approved && d.Args != nil {
		r.rewriteArgs(parentID, call, d.Args)
		if r.clientCalls[call.ID] {
			r.snapshotTranscript()
		}
	}
	return nil, nil
}

// snapshotTranscript sends MESSAGES_SNAPSHOT of the thread's transcript,
// as [run.announceHistory] does bounded to its newest messages that fit
// in one event ([newestThatFit]): the whole transcript of a long thread
// is over [agui.MaxEventSize], and the run would fail SERIALIZATION.
func (r *run) snapshotTranscript() {
	start, _, err := newestThatFit(r.cp.Messages, snapshotRoom)
	if err != nil {
		// A message that does not encode: the sink says why.
		start = 0
	}
	if view := r.cp.Messages[start:]; len(view) > 0 {
		r.emit(&agui.MessagesSnapshot{Messages: view})
	}
}
