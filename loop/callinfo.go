package loop

import (
	"context"
	"maps"
)

// CallInfo is what a running tool can learn about its call: a plain
// value, read with [CallFrom]. It may gain fields; code that builds one
// should use field names.
//
// # At-least-once
//
// The loop records a call's result as soon as it and every call before it
// have finished, but a call runs before its result is recorded. When the
// process running it dies in that window (or the run loses its thread's
// lease), the run that takes the thread over after the lease ran out (see
// Lease) runs every call that has no recorded result again. So a tool runs
// at least once per call, and may run more than once: Attempt is then
// above 1.
//
// A tool with effects outside the process (a payment, an email, a write to
// another service) should use ID as an idempotency key: send it with the
// request (an Idempotency-Key header, a unique column, a dedupe table), so
// that a second attempt finds the effect of the first instead of repeating
// it. IDs are unique within a thread; combine one with the thread's id for
// a key unique across threads.
type CallInfo struct {
	// ID is the tool call's id (the AG-UI toolCallId), the same in every
	// attempt.
	ID string
	// Name is the tool's name.
	Name string
	// ThreadID and RunID are the run's thread and run ids.
	ThreadID string
	RunID    string
	// Attempt is 1 for the run that first took the call on, and one more
	// for each run that took it on again after its run lost the thread
	// without recording a result. Above 1, an earlier attempt may have
	// started, or even finished, the call.
	Attempt int
}

// CallFrom returns the call a tool's context belongs to; ok is false for a
// context that is not a tool call's.
func CallFrom(ctx context.Context) (CallInfo, bool) {
	s, ok := scopeOf(ctx)
	if !ok {
		return CallInfo{}, false
	}
	return s.call, true
}

// callInfo returns the CallInfo of a call about to start.
func (r *run) callInfo(c Call) CallInfo {
	n := r.cp.Attempts[c.ID]
	if n == 0 {
		n = 1
	}
	return CallInfo{ID: c.ID, Name: c.Name, ThreadID: r.thread, RunID: r.runID, Attempt: n}
}

// retryPending counts one more attempt for every unanswered call of the
// thread's last turn: it is called when a run takes over a thread whose
// running holder's lease ran out, whose calls may have started.
func (r *run) retryPending() {
	msg, first := r.pendingTurn()
	if msg == nil {
		return
	}
	attempts := maps.Clone(r.cp.Attempts) // the loaded map may be the store's
	if attempts == nil {
		attempts = map[string]int{}
	}
	for _, c := range msg.ToolCalls[first:] {
		n := attempts[c.ID]
		if n == 0 {
			n = 1
		}
		attempts[c.ID] = n + 1
	}
	r.cp.Attempts = attempts
}
