package loop

import "context"

// CallInfo is what a running tool can learn about its call: a plain
// value, read with CallFrom. It may gain fields; code that builds one
// should use field names.
type CallInfo struct {
	// ID is the tool call's id (the AG-UI toolCallId). It is unique within
	// the thread and the same each time the call runs, so a tool with
	// effects outside the process should use it (with ThreadID) as an
	// idempotency key: a call running when its process died runs again on
	// recovery.
	ID string
	// Name is the tool's name.
	Name string
	// ThreadID and RunID are the run's thread and run ids.
	ThreadID string
	RunID    string
	// Attempt is 1 for the first run that took the call on.
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
	return CallInfo{ID: c.ID, Name: c.Name, ThreadID: r.thread, RunID: r.runID, Attempt: 1}
}
