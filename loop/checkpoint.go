package loop

import (
	"context"
	"errors"
	"slices"
	"sync"
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
	// StatusIdle: no run holds the thread; the next run continues the
	// transcript (after an abort, a failure or a normal finish).
	StatusIdle Status = "idle"
)

// Checkpoint is the durable state of one thread. A checkpoint handed to or
// returned by a Store belongs to the receiver; its Messages are never
// modified in place by the loop (it appends to copies).
type Checkpoint struct {
	ThreadID string
	Status   Status
	// LeaseUntil is when a running checkpoint's holder is presumed dead, so
	// that a crashed run does not lock its thread forever.
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
	// Owner is the principal whose run created the thread ("" for none):
	// see WithPrincipal and CheckOwner.
	Owner string
}

// PendingApproval is a tool call paused for approval; part of a
// Checkpoint, owned like it.
type PendingApproval struct {
	InterruptID string
	ToolCallID  string
	// Decision is the client's answer, recorded in the same write that
	// claims the thread so that a decision is acted on at most once.
	Decision *Decision
}

// Decision is a client's answer to an approval; a plain value.
type Decision struct {
	Approved bool
	Reason   string
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
// thread exclusive.
type Store interface {
	// Load returns the thread's checkpoint and its version, or ErrNotFound.
	Load(ctx context.Context, threadID string) (*Checkpoint, int64, error)
	// Save stores cp if the stored version is expect (0: no checkpoint
	// yet) and returns the new version; otherwise it returns ErrConflict.
	Save(ctx context.Context, cp *Checkpoint, expect int64) (int64, error)
	// Delete removes the thread's checkpoint; deleting none is no error.
	Delete(ctx context.Context, threadID string) error
}

// MemoryStore is the in-memory Store, the default. It is safe for
// concurrent use; its checkpoints live as long as it does.
type MemoryStore struct {
	mu      sync.Mutex
	entries map[string]memoryEntry
}

type memoryEntry struct {
	cp      Checkpoint
	version int64
}

// NewMemoryStore returns an empty store.
func NewMemoryStore() *MemoryStore { return &MemoryStore{entries: map[string]memoryEntry{}} }

// Load implements Store.
func (s *MemoryStore) Load(_ context.Context, threadID string) (*Checkpoint, int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.entries[threadID]
	if !ok {
		return nil, 0, ErrNotFound
	}
	cp := e.cp.clone()
	return &cp, e.version, nil
}

// Save implements Store.
func (s *MemoryStore) Save(_ context.Context, cp *Checkpoint, expect int64) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.entries[cp.ThreadID].version != expect {
		return 0, ErrConflict
	}
	v := expect + 1
	s.entries[cp.ThreadID] = memoryEntry{cp: cp.clone(), version: v}
	return v, nil
}

// Delete implements Store.
func (s *MemoryStore) Delete(_ context.Context, threadID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.entries, threadID)
	return nil
}

// clone copies cp deeply enough that neither copy's later appends or
// pending changes reach the other (messages themselves are immutable).
func (cp Checkpoint) clone() Checkpoint {
	cp.Messages = slices.Clip(slices.Clone(cp.Messages))
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
