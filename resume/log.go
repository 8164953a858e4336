package resume

import (
	"context"
	"time"

	"github.com/agui-go/agui"
)

// Log stores the events of resumable runs (see [Handler]): each
// run is an append-only log of its encoded events, numbered 1, 2, 3, …
// with no gaps, written by one owner at a time and read by any number of
// connections, each from its own cursor.
//
// The rules every implementation keeps, which make a resumed stream
// exactly the stream that was cut:
//
//   - Append stores entries at Last+1, Last+2, …; an entry at a sequence
//     number already stored is refused ([ErrSeqConflict]), except that a
//     retried batch that was already applied by the same lease is
//     accepted again without effect.
//   - Only the current [Lease] may append, renew or seal: once Takeover has
//     handed the run to another owner, the old lease gets [ErrFenced].
//   - Read returns what Append stored, in order, and only that.
//
// Implementations are safe for concurrent use. [MemoryLog] is the in-process
// implementation; package redislog keeps runs on Redis so that any replica
// can serve a rejoin.
type Log interface {
	// Begin creates the log of run m.RunID, owned by m.Owner for ttl,
	// and makes it the active run of its thread for its principal. When the run exists it
	// returns [ErrRunExists] with the run's status, so the caller can join
	// it instead. [ErrLogFull] means the log has no room for a new run.
	Begin(ctx context.Context, m RunMeta, ttl time.Duration) (Lease, RunStatus, error)
	// Append stores a copy of entries, whose Seq must follow the run's
	// Last, under lease l. A terminal entry is the run's last.
	Append(ctx context.Context, l Lease, entries []Entry) error
	// Renew extends l by ttl and returns the run's status, which carries
	// a stop request and how recently a reader read the run.
	Renew(ctx context.Context, l Lease, ttl time.Duration) (RunStatus, error)
	// Seal marks the run finished: it is no longer an active run, and it is kept for the log's retention time, then deleted.
	Seal(ctx context.Context, l Lease) error
	// Read returns up to max entries with Seq > after, in order. When
	// there are none yet and the run is not sealed, it waits up to wait
	// (an implementation may wait less) for the first one. It fails with
	// [ErrRunNotFound] for an unknown or expired run and [ErrCursorAhead]
	// when after is beyond the run's last entry.
	Read(ctx context.Context, runID string, after uint64, max int, wait time.Duration) ([]Entry, RunStatus, error)
	// Status returns the run's status, or [ErrRunNotFound].
	Status(ctx context.Context, runID string) (RunStatus, error)
	// Stop records a request to stop the run; its owner learns it on its
	// next Renew. Stopping a sealed run has no effect.
	Stop(ctx context.Context, runID string) error
	// Takeover gives a run whose lease has expired, by the log's clock,
	// to owner with a new lease. It fails with [ErrLeaseHeld] while the
	// lease is live and [ErrFenced] once the run is sealed.
	Takeover(ctx context.Context, runID, owner string, ttl time.Duration) (Lease, RunStatus, error)
	// ActiveRun returns the id of the unsealed run of the thread that
	// principal began, or "". Runs are found per principal: another
	// principal's run on the same thread id is neither returned nor
	// replaced by a run of this one.
	ActiveRun(ctx context.Context, threadID, principal string) (string, error)
	// DeleteThread deletes every run of the thread that principal began,
	// running or sealed, with its events: its readers then get
	// [ErrRunNotFound], and a running one's owner fails its next write
	// (the run is cancelled). Runs of other principals stay. It is how a
	// deleted thread takes its run logs along (the loop's thread API,
	// loop.WithThreadCleanup); deleting none is no error.
	DeleteThread(ctx context.Context, threadID, principal string) error
}

// Entry is one event of a run's log.
type Entry struct {
	// Seq is the event's number in its run, from 1; it is the SSE id.
	Seq uint64
	// Data is the event's JSON, exactly the SSE data: payload. Append
	// copies what the log keeps: the caller may reuse Data once Append
	// has returned. What Read returns must not be modified.
	Data []byte
	// Terminal marks RUN_FINISHED or RUN_ERROR, the run's last event.
	Terminal bool
}

// RunMeta is what a run's log records about it when it begins.
type RunMeta struct {
	RunID    string
	ThreadID string
	// Principal is who started the run (see [core.WithPrincipal]); only the
	// same principal may rejoin or stop it, or find it as its thread's
	// active run.
	Principal string
	// Owner names the process that runs it (see [WithReplicaID]).
	Owner string
}

// RunStatus is a run's log as last stored.
type RunStatus struct {
	RunMeta
	// Gen is the generation of the current lease.
	Gen uint64
	// Last is the Seq of the newest stored entry (0 for none).
	Last uint64
	// Sealed is true once the run's owner sealed it.
	Sealed bool
	// Stopped is true once Stop was called before the run was sealed.
	Stopped bool
	// LeaseExpired reports that the owner has not renewed its lease in
	// time, by the log's clock: it is presumed dead.
	LeaseExpired bool
	// SinceRead is how long ago a reader last read the run (0 while one
	// is waiting in Read); negative when nobody ever read it.
	SinceRead time.Duration
}

// Lease is the right to write one run's log: its generation fences a
// previous owner out.
type Lease struct {
	RunID string
	Owner string
	Gen   uint64
}

// Codes of the errors of a [Log] and of [Handler]'s refusals.
const (
	CodeRunExists   agui.Code = "RUN_EXISTS"
	CodeRunNotFound agui.Code = "RUN_NOT_FOUND"
	CodeRunGone     agui.Code = "RUN_GONE"
	CodeCursorAhead agui.Code = "CURSOR_AHEAD"
	CodeFenced      agui.Code = "FENCED"
	CodeLeaseHeld   agui.Code = "LEASE_HELD"
	CodeSeqConflict agui.Code = "SEQ_CONFLICT"
	CodeLogFull     agui.Code = "LOG_FULL"
	CodeRunLost     agui.Code = "RUN_LOST"
	// CodeStoreUnavailable: the run log's store cannot be reached (the
	// 503 of a request the log cannot serve, and the RUN_ERROR that ends
	// a connection whose log read failed).
	CodeStoreUnavailable agui.Code = "STORE_UNAVAILABLE"
)

// Sentinels of the [Log] errors, for errors.Is: they match any
// [*agui.Error] with the same code.
var (
	ErrRunExists   error = &agui.Error{Code: CodeRunExists}
	ErrRunNotFound error = &agui.Error{Code: CodeRunNotFound}
	ErrCursorAhead error = &agui.Error{Code: CodeCursorAhead}
	ErrFenced      error = &agui.Error{Code: CodeFenced}
	ErrLeaseHeld   error = &agui.Error{Code: CodeLeaseHeld}
	ErrSeqConflict error = &agui.Error{Code: CodeSeqConflict}
	ErrLogFull     error = &agui.Error{Code: CodeLogFull}
)
