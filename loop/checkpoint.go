package loop

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"time"

	"github.com/agui-go/agui"
)

// Status is where a thread's checkpoint stands.
type Status string

// The checkpoint statuses.
const (
	// StatusRunning: a run holds the thread until LeaseUntil.
	StatusRunning Status = "running"
	// StatusAwaitingApproval: the thread waits for the answer to Pending.
	StatusAwaitingApproval Status = "awaiting-approval"
	// StatusAwaitingClient: the thread waits for the client's results of
	// the frontend calls in ClientCalls.
	StatusAwaitingClient Status = "awaiting-client"
	// StatusIdle: no run holds the thread; the next run continues the
	// transcript (after an abort, a failure or a normal finish).
	StatusIdle Status = "idle"
)

// Checkpoint is the durable state of one thread. A checkpoint handed to or
// returned by a [Store] belongs to the receiver; its Messages are never
// modified in place by the loop (it appends to copies).
type Checkpoint struct {
	ThreadID string
	Status   Status
	// LeaseUntil is when a running checkpoint's holder is presumed dead, so
	// that a crashed run does not lock its thread forever. It is a time
	// of the store's clock ([Store.Now]), as every run reads it.
	LeaseUntil time.Time
	// Steps is the number of model turns of the current run (an approval
	// resume or crash recovery continues the count).
	Steps int
	// Messages is the transcript. Its last assistant turn may have
	// unanswered calls: those are pending.
	Messages []agui.Message
	Usage    Usage
	// Pending is the approval the thread waits on, or, once answered and
	// claimed, the recorded decision.
	Pending *PendingApproval
	// Attempts counts, by call id, the runs that took on a call of the
	// last turn after an earlier run lost the thread (absent: 1); see
	// [CallInfo].
	Attempts map[string]int
	// ClientCalls are the ids of the last turn's frontend calls that
	// await the client's result.
	ClientCalls []string
	// Parked are results of the last turn's calls that finished while an
	// earlier call of the turn awaited the client or an approval; they
	// join the transcript, in call order, once that call is answered.
	Parked []*agui.ToolMessage
	// State is the JSON of the thread's shared state as last saved (nil
	// for an agent without state).
	State json.RawMessage
	// Owner is the principal whose run created the thread ("" for none):
	// see [core.ContextWithPrincipal] and CheckOwner.
	Owner string
	// Holder is an opaque token of the run holding a running checkpoint
	// ("" otherwise), so that it tells the requests below, written by
	// runs waiting for the thread, from another run's takeover.
	Holder string
	// CancelRequested asks the holder to stop: a run of a
	// [BusyInterrupt] agent waits for the thread ([WithBusy]).
	CancelRequested bool
	// Steer are user, system and developer messages handed to the holder
	// by runs of a [BusySteer] agent; it reads them at its next safe
	// point, or the next run of the thread takes them as input.
	Steer []agui.Message
}

// PendingApproval is a tool call paused for approval; part of a
// [Checkpoint], owned like it.
type PendingApproval struct {
	InterruptID string
	ToolCallID  string
	// ExpiresAt is the approval's deadline (zero: none), by the store's
	// clock ([Store.Now]); see [WithApprovalTimeout].
	ExpiresAt time.Time
	// Decision is the client's answer, recorded in the same write that
	// claims the thread so that a decision is acted on at most once.
	Decision *Decision
	// Question is set when the call is a question tool's ([NewQuestion]):
	// the resume's payload is the user's answer, not an approval.
	Question bool `json:",omitempty"`
}

// Decision is a client's answer to an approval; a plain value.
type Decision struct {
	Approved bool
	Reason   string
	// Args are the call's arguments as the user edited them (nil: as the
	// model asked); they replace the model's before the call runs.
	Args json.RawMessage
	// Expired is set when the answer came after the approval's deadline:
	// the call is rejected and the run fails with APPROVAL_EXPIRED.
	Expired bool
	// Answer is the user's answer to a question ([NewQuestion]); nil for
	// an approval.
	Answer json.RawMessage `json:",omitempty"`
}

// Store errors.
var (
	// ErrNotFound: no checkpoint for the thread.
	ErrNotFound = errors.New("loop: checkpoint not found")
	// ErrConflict: the stored version is not the expected one.
	ErrConflict = errors.New("loop: checkpoint version conflict")
)

// Store keeps one checkpoint per thread. Implementations must be safe for
// concurrent use; Save's version check is what makes two runs on one
// thread exclusive. A call on a done ctx fails with ctx's error and has no
// effect. Package storetest checks an implementation against this
// contract; [MarshalCheckpoint] encodes a checkpoint for stores that keep
// bytes.
//
// A thread's transcript grows by appends: each model turn and tool result
// adds a message or two to a transcript that may hold thousands. Save's
// kept says which part the store already holds, so that a turn costs the
// store what it adds, not the whole transcript (see [Store.Save]).
type Store interface {
	// Load returns the thread's checkpoint and its version, or [ErrNotFound].
	Load(ctx context.Context, threadID string) (*Checkpoint, int64, error)
	// Save stores cp if the stored version is expect (0: no checkpoint
	// yet) and returns the new version; otherwise it returns [ErrConflict].
	//
	// kept is how many of cp's first messages are, unchanged (the very
	// same values), the first messages of the transcript stored at
	// version expect: the caller loaded or saved that version and only
	// appended since, or changed messages from index kept on. The store
	// may then write only cp.Messages[kept:] after its first kept
	// messages, dropping the ones it held past them. kept 0 makes the
	// store write the whole transcript, and is always correct; a kept
	// past the stored transcript's length (a caller's mistake) is treated
	// as 0. A caller that changed a stored message (an edited tool call's
	// arguments, a transcript trimmed from its start) passes at most the
	// index of the first change.
	Save(ctx context.Context, cp *Checkpoint, expect int64, kept int) (int64, error)
	// Delete removes the thread's checkpoint; deleting none is no error.
	Delete(ctx context.Context, threadID string) error
	// Now is the store's clock where the thread's checkpoint lives. Runs
	// stamp and read leases and approval deadlines by it, never by their
	// own process's clock, so replicas whose clocks disagree still
	// exclude each other: a store shared by processes answers with one
	// clock they all read (Redis's TIME, say), and a store in one
	// process answers with that process's clock.
	Now(ctx context.Context, threadID string) (time.Time, error)
}

// clone copies cp deeply enough that neither copy's later appends or
// pending changes reach the other (messages themselves are immutable).
func (cp Checkpoint) clone() Checkpoint {
	cp = cp.cloneBare()
	cp.Messages = slices.Clip(slices.Clone(cp.Messages))
	return cp
}

// cloneBare is clone but for Messages, which the copy shares with cp.
func (cp Checkpoint) cloneBare() Checkpoint {
	cp.Attempts = maps.Clone(cp.Attempts)
	cp.ClientCalls = slices.Clip(slices.Clone(cp.ClientCalls))
	cp.Parked = slices.Clip(slices.Clone(cp.Parked))
	cp.Steer = slices.Clip(slices.Clone(cp.Steer))
	cp.State = slices.Clone(cp.State)
	if cp.Pending != nil {
		p := *cp.Pending
		if p.Decision != nil {
			d := *p.Decision
			p.Decision = &d
		}
		cp.Pending = &p
	}
	return cp
}
