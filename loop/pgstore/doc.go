// Package pgstore keeps the loop's threads in PostgreSQL: their
// checkpoints (approvals included), their transcripts one row per
// message, and the thread list ([loop.ThreadStore]), so that replicas
// share their threads in the database a team already runs.
//
// Quick start (github.com/jackc/pgx/v5's pgxpool):
//
//	pool, err := pgxpool.New(ctx, os.Getenv("DATABASE_URL"))
//	if err != nil { … }
//	defer pool.Close()
//	if err := pgstore.Migrate(ctx, pool); err != nil { … } // at start, from every replica: idempotent
//	store, err := pgstore.New(pool)
//	agent, err := loop.New(provider, loop.WithTools(book), loop.WithCheckpoints(store))
//
// # Schema
//
// [Migrate] applies the package's embedded migrations under an advisory
// lock and records the schema's version in agui_schema_version
// (component "loop"); version 1 is two tables:
//
//   - agui_loop_threads, a row per thread: the checkpoint without its
//     transcript (loop.MarshalCheckpoint), its version, owner, status and
//     lease, its message count and a SHA-256 chain head over its
//     messages, its title and archived flag, and its creation and last
//     activity times by the database's clock. The thread list reads the
//     index (owner, archived, updated_at DESC, thread_id DESC): a page is
//     one range scan from the cursor's row (TestThreadListUsesItsIndex).
//   - agui_loop_messages, a row per message (thread_id, seq, message_id,
//     its AG-UI JSON), deleted with its thread. A page of a transcript
//     is a range scan of the primary key (thread_id, seq).
//
// The tables have fixed names; give each application its own schema
// (search_path in the connection URL) when several share a database.
//
// # What a save writes
//
// A save updates the thread's row if its version is the expected one (a
// few hundred bytes, plus any pending approval, parked results and shared
// state) and inserts the messages past the stored transcript, which it
// knows to be a prefix of the new one by comparing the chain head,
// without reading the stored messages (TestSaveWritesOnlyNewMessages).
// So a loop turn writes the turn's new messages, whatever the thread's
// length; a transcript that was rewritten (shortened, or a stored
// message changed) is written whole.
//
// A Store keeps the transcripts it last loaded or saved, decoded, up to
// [WithCacheBytes] (64 MiB of their JSON by default). A save over such a
// version that keeps its whole transcript (Save's kept: every save of a
// run after its load that appends) encodes and hashes only the new messages and is one
// statement; a load of such a version reads the thread's row alone
// (TestLoadOfAKnownVersionReadsTheRowAlone). So on the replica that ran
// a thread's previous turn, a turn's store cost does not grow with the
// thread (BENCHMARKS.md). Any other save (another replica saved since)
// encodes the whole transcript and is a transaction that locks the row
// and reads its head first (TestSaveAcrossStores); any other load reads
// and decodes every message, in one statement with the row.
//
// # Versions, leases and the clock
//
// Of several processes saving over one version exactly one wins: that is
// the loop's claim on a thread. Leases and approval deadlines are times
// of the database's clock, clock_timestamp() ([Store.Now]), so replicas
// whose clocks disagree still exclude each other. A save's new version
// is the database's clock in microseconds when that is past the stored
// one plus one: a thread deleted and created again never repeats a
// version of its earlier life, so a writer still holding one cannot
// overwrite it.
//
// Nothing expires on its own: a thread stays until it is deleted (the
// thread API's delete, or [Store.Delete]). Durability is the database's;
// the store asks for nothing beyond a committed transaction.
//
// When the database cannot be reached a call fails with an error
// wrapping [ErrUnavailable] (and the driver's error), whose message names
// no address: the loop fails the run with CHECKPOINT_ERROR before any
// tool runs, and the next run, once the database is back, works.
package pgstore
