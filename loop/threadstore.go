package loop

import (
	"context"
	"errors"
	"time"
)

// ThreadStore is implemented by a [Store] that can list a principal's
// threads and keep a title and an archived flag beside each checkpoint
// ([MemoryStore] and package redisstore do). The thread API
// ([ThreadsHandler]) needs it; the loop itself does not. Implementations
// must be safe for concurrent use, and a call on a done ctx fails with
// ctx's error and has no effect. Package storetest checks an
// implementation against this contract.
//
// The store keeps what it lists itself, at each [Store.Save]: a thread's
// creation (its first save) and last activity (its latest save) by the
// store's clock ([Store.Now]), its message count, its owner
// ([Checkpoint.Owner]) and its status. Title and archived flag are not
// part of the checkpoint: changing them never changes the checkpoint's
// version, so a rename does not take a thread from the run holding it.
// [Store.Delete] removes the thread from every list along with its
// checkpoint, and a thread the store expires leaves its lists too; one
// created again under its id starts untitled, unarchived and newly
// created. An unowned thread a principal's run claims moves to that
// principal's list.
type ThreadStore interface {
	// Threads returns a page of owner's threads ([Checkpoint.Owner]),
	// most recent activity first (ties by thread id, descending). A
	// malformed cursor is [ErrBadCursor].
	Threads(ctx context.Context, owner string, q ThreadQuery) (ThreadPage, error)
	// UpdateThread applies u to the thread and returns its summary, or
	// [ErrNotFound]. It leaves the checkpoint and its version as they are.
	UpdateThread(ctx context.Context, threadID string, u ThreadUpdate) (ThreadSummary, error)
}

// ErrBadCursor: a [ThreadQuery]'s Cursor is not of the form the store
// hands out.
var ErrBadCursor = errors.New("loop: bad thread list cursor")

// ThreadQuery selects a page of a [ThreadStore]'s list; a plain value.
type ThreadQuery struct {
	// Limit is the most threads the page holds; the store serves at
	// least one and at most [MaxThreadPage] whatever it is.
	Limit int
	// Cursor is the previous page's Next ("" for the first page).
	Cursor string
	// Archived selects the archived threads instead of the others.
	Archived bool
}

// MaxThreadPage is the most threads one [ThreadStore.Threads] page
// holds.
const MaxThreadPage = 100

// ThreadPage is one page of a principal's threads; a plain value.
type ThreadPage struct {
	Threads []ThreadSummary `json:"threads"`
	// Next is the cursor of the following page, "" on the last one. A
	// thread active while a client pages moves to the head of the list:
	// the pages after it skip it, and a fresh first page shows it.
	Next string `json:"nextCursor,omitempty"`
}

// ThreadSummary is one entry of a thread list; a plain value.
type ThreadSummary struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	// Created and Updated are the thread's first and latest save, by the
	// store's clock.
	Created  time.Time `json:"createdAt"`
	Updated  time.Time `json:"updatedAt"`
	Messages int       `json:"messageCount"`
	Archived bool      `json:"archived"`
	// RunActive: a run holds the thread ([StatusRunning]) and its lease
	// has not run out.
	RunActive bool `json:"runActive"`
	// InterruptPending: the thread waits for an approval or for the
	// client's results ([StatusAwaitingApproval], [StatusAwaitingClient]).
	InterruptPending bool `json:"interruptPending"`
}

// ThreadUpdate is a change to a thread's title or archived flag; a nil
// field is left as it is. A plain value.
type ThreadUpdate struct {
	Title    *string
	Archived *bool
}

// MaxTitle is the most bytes of a thread title; a longer one is refused
// by the thread API and cut by the title generator.
const MaxTitle = 200

// PageSize is q.Limit bounded to at least 1 and at most [MaxThreadPage]:
// the size a [ThreadStore] serves.
func (q ThreadQuery) PageSize() int { return min(max(q.Limit, 1), MaxThreadPage) }

// summarize fills what a [ThreadSummary] derives from a checkpoint
// (message count, run active, interrupt pending), now being the store's
// clock.
func summarize(s *ThreadSummary, cp *Checkpoint, now time.Time) {
	s.ID = cp.ThreadID
	s.Messages = len(cp.Messages)
	s.RunActive = cp.Status == StatusRunning && now.Before(cp.LeaseUntil)
	s.InterruptPending = cp.Status == StatusAwaitingApproval || cp.Status == StatusAwaitingClient
}
