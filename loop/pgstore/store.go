package pgstore

import (
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/internal/pgmigrate"
	"github.com/agui-go/agui/internal/transcripts"
	"github.com/agui-go/agui/loop"
)

// ErrUnavailable: PostgreSQL could not be reached or refused a statement.
// The error a [Store] method returns wraps it and the driver's error; its
// message names neither addresses nor credentials, since a run reports it
// to its client (as a CHECKPOINT_ERROR).
var ErrUnavailable = errors.New("pgstore: postgres unavailable")

//go:embed migrations/*.sql
var migrations embed.FS

// Migrate creates or updates the store's tables in pool's database (see
// the package documentation). It is idempotent and safe to call from
// every replica at once: an advisory lock lets one apply each migration.
// A [Store] on a database Migrate has not prepared fails every call.
func Migrate(ctx context.Context, pool *pgxpool.Pool) error {
	if _, err := pgmigrate.Apply(ctx, pool, "loop", migrations); err != nil {
		return fmt.Errorf("pgstore: migrate: %w", err)
	}
	return nil
}

// Store is a [loop.Store] and [loop.ThreadStore] on PostgreSQL: a row per
// thread (its checkpoint without the transcript, its version, what the
// thread list shows) and a row per message. It is safe for concurrent
// use, from any number of processes sharing one database.
//
// A Save is one transaction that locks the thread's row and checks its
// version, so of several processes saving over one version exactly one
// wins; that is the loop's claim on a thread. The lease is the
// checkpoint's LeaseUntil, a time of the database's clock ([Store.Now]).
type Store struct {
	pool  *pgxpool.Pool
	cache *transcripts.Cache
}

var (
	_ loop.Store       = (*Store)(nil)
	_ loop.ThreadStore = (*Store)(nil)
)

// New returns a [Store] on pool, whose database [Migrate] has prepared.
// It does not contact the database, and does not close the pool.
func New(pool *pgxpool.Pool, opts ...Option) (*Store, error) {
	if pool == nil {
		return nil, errors.New("pgstore: nil pool")
	}
	cfg := config{cacheBytes: DefaultCacheBytes}
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	return &Store{pool: pool, cache: transcripts.New(cfg.cacheBytes)}, nil
}

// encoded is a checkpoint as the tables keep it: its row, and its
// messages from index first on.
type encoded struct {
	doc   []byte // the checkpoint without its messages
	lease *time.Time
	first int
	msgs  [][]byte // each message's AG-UI JSON, from first on
	ids   []string
	heads [][]byte // heads[i]: the chain over the transcript's first+i messages
	size  int64    // the encoded bytes of msgs
}

// encode encodes cp's row and its messages from first on, chaining from
// head, the chain over the messages before first. A link is SHA-256 of
// the previous one, the message's length and its bytes: equal heads mean
// equal transcripts up to that length.
func encode(cp *loop.Checkpoint, first int, head []byte) (*encoded, error) {
	bare := *cp
	bare.Messages = nil
	doc, err := loop.MarshalCheckpoint(&bare)
	if err != nil {
		return nil, err
	}
	rest := cp.Messages[first:]
	e := &encoded{doc: doc, first: first, msgs: make([][]byte, len(rest)), ids: make([]string, len(rest)),
		heads: make([][]byte, len(rest)+1)}
	e.heads[0] = head
	var n [8]byte
	for i, m := range rest {
		if m == nil {
			return nil, fmt.Errorf("pgstore: message %d is nil", first+i)
		}
		b, err := json.Marshal(m)
		if err != nil {
			return nil, fmt.Errorf("pgstore: message %d: %w", first+i, err)
		}
		e.msgs[i], e.ids[i] = b, m.MessageID()
		e.size += int64(len(b))
		h := sha256.New()
		h.Write(e.heads[i])
		binary.BigEndian.PutUint64(n[:], uint64(len(b)))
		h.Write(n[:])
		h.Write(b)
		e.heads[i+1] = h.Sum(nil)
	}
	if cp.Status == loop.StatusRunning && !cp.LeaseUntil.IsZero() {
		e.lease = &cp.LeaseUntil
	}
	return e, nil
}

// head is the chain over the whole transcript.
func (e *encoded) head() []byte { return e.heads[len(e.heads)-1] }

// rows returns the rows of the messages from index from (at least
// e.first) on.
func (e *encoded) rows(from int) ([]int32, []string, [][]byte) {
	k := from - e.first
	seqs := make([]int32, 0, len(e.msgs)-k)
	for i := from; i < e.first+len(e.msgs); i++ {
		seqs = append(seqs, int32(i))
	}
	return seqs, e.ids[k:], e.msgs[k:]
}

// errConflict ends a save's transaction when the version is not the
// expected one.
var errConflict = errors.New("conflict")

// Versions are the database's clock in microseconds when that is past the
// stored version plus one: a thread deleted and created again starts past
// every version of its earlier life, so a writer still holding one cannot
// overwrite the new thread (no ABA). The clock going back by more than
// the time between a thread's delete and its re-creation would break this.
const (
	clockMicros = `(extract(epoch from clock_timestamp()) * 1000000)::bigint`

	createThread = `INSERT INTO agui_loop_threads
	(thread_id, version, owner, status, lease_until, doc, msg_count, msg_head, created_at, updated_at)
	SELECT $1, ` + clockMicros + `, $2, $3, $4, $5, $6, $7, now, now FROM (SELECT clock_timestamp() AS now) c
	ON CONFLICT (thread_id) DO NOTHING
	RETURNING version`

	// createWithMessages creates the thread and its messages in one
	// statement; the messages are inserted only when the thread was.
	createWithMessages = `WITH c AS (` + createThread + `),
	m AS (INSERT INTO agui_loop_messages (thread_id, seq, message_id, data)
		SELECT $1, s, i, d FROM unnest($8::integer[], $9::text[], $10::bytea[]) AS m(s, i, d)
		WHERE EXISTS (SELECT 1 FROM c))
	SELECT version FROM c`

	// appendOver updates the thread if its version is $8 and appends the
	// new messages only then: one statement, for a save whose stored
	// transcript the Store knows to be a prefix of its own.
	appendOver = `WITH u AS (UPDATE agui_loop_threads SET
		version = greatest(version + 1, ` + clockMicros + `),
		owner = $2, status = $3, lease_until = $4, doc = $5, msg_count = $6, msg_head = $7, updated_at = clock_timestamp()
		WHERE thread_id = $1 AND version = $8
		RETURNING version),
	m AS (INSERT INTO agui_loop_messages (thread_id, seq, message_id, data)
		SELECT $1, s, i, d FROM unnest($9::integer[], $10::text[], $11::bytea[]) AS m(s, i, d)
		WHERE EXISTS (SELECT 1 FROM u))
	SELECT version FROM u`

	lockThread = `SELECT version, msg_count, msg_head FROM agui_loop_threads WHERE thread_id = $1 FOR UPDATE`

	updateThread = `UPDATE agui_loop_threads SET
	version = greatest(version + 1, ` + clockMicros + `),
	owner = $2, status = $3, lease_until = $4, doc = $5, msg_count = $6, msg_head = $7, updated_at = clock_timestamp()
	WHERE thread_id = $1
	RETURNING version`

	insertMessages = `INSERT INTO agui_loop_messages (thread_id, seq, message_id, data)
	SELECT $1, s, i, d FROM unnest($2::integer[], $3::text[], $4::bytea[]) AS m(s, i, d)`
)

// Save implements [loop.Store]. What it writes: the thread's row (the
// checkpoint without its transcript, a few hundred bytes plus any
// pending approval, parked results and state) and, when the stored
// transcript is a prefix of cp's (as it is for every save of a run that
// appends to its thread), only the messages past it. A transcript that
// was rewritten (shortened, or a stored message changed) is written
// whole. The prefix is told by the chain head, so the stored messages are
// never read.
//
// A save over a version this Store loaded or saved itself whose kept is
// that version's whole transcript (the loop's saves after its load)
// encodes and hashes only the new messages and is one statement; any
// other encodes the whole transcript and is a transaction that locks the
// thread's row and reads its head first.
func (s *Store) Save(ctx context.Context, cp *loop.Checkpoint, expect int64, kept int) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if !storable(cp.ThreadID) || !storable(cp.Owner) {
		return 0, ErrUnstorable
	}
	n := len(cp.Messages)
	t := s.cache.Get(cp.ThreadID)
	fast := expect != 0 && t != nil && t.Version == expect && kept == len(t.Msgs) && kept <= n
	first, head, size := 0, []byte{}, int64(0)
	if fast {
		first, head, size = len(t.Msgs), t.Head, t.Size
	}
	e, err := encode(cp, first, head)
	if err != nil {
		return 0, err
	}
	args := []any{cp.ThreadID, cp.Owner, string(cp.Status), e.lease, e.doc, n, e.head()}
	var v int64
	switch {
	case expect == 0:
		seqs, ids, msgs := e.rows(0)
		err = s.pool.QueryRow(ctx, createWithMessages, append(args, seqs, ids, msgs)...).Scan(&v)
		if errors.Is(err, pgx.ErrNoRows) {
			err = errConflict
		}
	case fast:
		seqs, ids, msgs := e.rows(first)
		err = s.pool.QueryRow(ctx, appendOver, append(args, expect, seqs, ids, msgs)...).Scan(&v)
		if errors.Is(err, pgx.ErrNoRows) {
			err = errConflict
		}
	default:
		v, err = s.saveLocked(ctx, cp.ThreadID, expect, e, args)
	}
	if errors.Is(err, errConflict) {
		s.cache.Drop(cp.ThreadID)
		return 0, loop.ErrConflict
	}
	if err != nil {
		s.cache.Drop(cp.ThreadID)
		return 0, s.fail(ctx, "save", err)
	}
	s.cache.Put(cp.ThreadID, &transcripts.Transcript{Version: v, Head: e.head(), Msgs: slices.Clip(slices.Clone(cp.Messages)), Size: size + e.size})
	return v, nil
}

// saveLocked is a save over a version the Store does not know: it locks
// the thread's row, checks the version, and writes the messages past the
// stored transcript if that is a prefix of e's (encoded whole), else all
// of them.
func (s *Store) saveLocked(ctx context.Context, thread string, expect int64, e *encoded, args []any) (int64, error) {
	var v int64
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var count int
		var head []byte
		err := tx.QueryRow(ctx, lockThread, thread).Scan(&v, &count, &head)
		if errors.Is(err, pgx.ErrNoRows) || err == nil && v != expect {
			return errConflict
		}
		if err != nil {
			return err
		}
		from := 0
		if count <= len(e.msgs) && bytes.Equal(head, e.heads[count]) {
			from = count
		} else if _, err := tx.Exec(ctx, "DELETE FROM agui_loop_messages WHERE thread_id = $1", thread); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, updateThread, args...).Scan(&v); err != nil {
			return err
		}
		if from == len(e.msgs) {
			return nil
		}
		seqs, ids, msgs := e.rows(from)
		_, err = tx.Exec(ctx, insertMessages, thread, seqs, ids, msgs)
		return err
	})
	return v, err
}

// Load implements [loop.Store]: one statement, so the thread's row and
// its messages are one snapshot. When the Store holds the transcript of
// the stored version (it loaded or saved it last), the statement reads
// the row alone.
func (s *Store) Load(ctx context.Context, threadID string) (*loop.Checkpoint, int64, error) {
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	if !storable(threadID) {
		return nil, 0, loop.ErrNotFound
	}
	t := s.cache.Get(threadID)
	var have int64 // the cached version, 0 for none
	if t != nil {
		have = t.Version
	}
	var (
		v     int64
		doc   []byte
		count int
		head  []byte
		msgs  [][]byte
	)
	err := s.pool.QueryRow(ctx, `SELECT t.version, t.doc, t.msg_count, t.msg_head,
		CASE WHEN t.version = $2 THEN NULL
		ELSE ARRAY(SELECT m.data FROM agui_loop_messages m WHERE m.thread_id = t.thread_id ORDER BY m.seq) END
		FROM agui_loop_threads t WHERE t.thread_id = $1`, threadID, have).Scan(&v, &doc, &count, &head, &msgs)
	if errors.Is(err, pgx.ErrNoRows) {
		s.cache.Drop(threadID)
		return nil, 0, loop.ErrNotFound
	}
	if err != nil {
		return nil, 0, s.fail(ctx, "load", err)
	}
	cp, err := loop.UnmarshalCheckpoint(doc)
	if err != nil {
		return nil, 0, err
	}
	if t != nil && v == t.Version {
		if len(t.Msgs) != count {
			s.cache.Drop(threadID)
			return nil, 0, fmt.Errorf("%w: thread %q has %d messages, its cached transcript %d", loop.ErrCheckpointFormat, threadID, count, len(t.Msgs))
		}
		cp.Messages = t.Messages()
		return cp, v, nil
	}
	if len(msgs) != count {
		return nil, 0, fmt.Errorf("%w: thread %q has %d message rows, its checkpoint says %d", loop.ErrCheckpointFormat, threadID, len(msgs), count)
	}
	var size int64
	if count > 0 {
		cp.Messages = make([]agui.Message, count)
	}
	for i, b := range msgs {
		if cp.Messages[i], err = agui.DecodeMessage(b); err != nil {
			return nil, 0, fmt.Errorf("%w: message %d: %w", loop.ErrCheckpointFormat, i, err)
		}
		size += int64(len(b))
	}
	s.cache.Put(threadID, &transcripts.Transcript{Version: v, Head: head, Msgs: slices.Clip(slices.Clone(cp.Messages)), Size: size})
	return cp, v, nil
}

// Delete implements [loop.Store]: the thread's row and its messages.
func (s *Store) Delete(ctx context.Context, threadID string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if !storable(threadID) {
		return nil
	}
	s.cache.Drop(threadID)
	if _, err := s.pool.Exec(ctx, "DELETE FROM agui_loop_threads WHERE thread_id = $1", threadID); err != nil {
		return s.fail(ctx, "delete", err)
	}
	return nil
}

// Now implements [loop.Store]: the database's clock (clock_timestamp(),
// the time of the call rather than of the transaction), which every
// replica on the database reads alike.
func (s *Store) Now(ctx context.Context, _ string) (time.Time, error) {
	if err := ctx.Err(); err != nil {
		return time.Time{}, err
	}
	var t time.Time
	if err := s.pool.QueryRow(ctx, "SELECT clock_timestamp()").Scan(&t); err != nil {
		return time.Time{}, s.fail(ctx, "now", err)
	}
	return t, nil
}

// fail wraps a driver error: the context's error when ctx ended (or its
// deadline passed), ErrUnavailable otherwise.
func (s *Store) fail(ctx context.Context, op string, err error) error {
	if ctx.Err() != nil {
		return &opError{op: op, kind: ctx.Err(), err: err}
	}
	if dl, ok := ctx.Deadline(); ok && !time.Now().Before(dl) {
		return &opError{op: op, kind: context.DeadlineExceeded, err: err}
	}
	return &opError{op: op, kind: ErrUnavailable, err: err}
}

// opError is a failed call: its message is the operation and kind only;
// errors.Is finds kind and the driver's error.
type opError struct {
	op   string
	kind error
	err  error
}

func (e *opError) Error() string {
	if e.kind == ErrUnavailable {
		return "pgstore: " + e.op + ": postgres unavailable"
	}
	return "pgstore: " + e.op + ": " + e.kind.Error()
}

func (e *opError) Unwrap() []error { return []error{e.kind, e.err} }
