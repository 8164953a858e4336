package pgstore

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/agui-go/agui/loop"
)

// summaryColumns are what a [loop.ThreadSummary] is made of, then the
// database's clock, which tells whether a running thread's lease is live.
const summaryColumns = `thread_id, title, created_at, updated_at, msg_count, archived, status, lease_until, clock_timestamp()`

// The list's statements: a page, from the newest or after a cursor.
const (
	listFirst = `SELECT ` + summaryColumns + ` FROM agui_loop_threads
		WHERE owner = $1 AND archived = $2
		ORDER BY updated_at DESC, thread_id DESC LIMIT $3`
	listAfter = `SELECT ` + summaryColumns + ` FROM agui_loop_threads
		WHERE owner = $1 AND archived = $2 AND (updated_at, thread_id) < ($4, $5)
		ORDER BY updated_at DESC, thread_id DESC LIMIT $3`
)

// Threads implements [loop.ThreadStore]: one range scan of the index on
// (owner, archived, updated_at DESC, thread_id DESC), starting after the
// cursor's row, so a page costs its size whatever the number of threads.
func (s *Store) Threads(ctx context.Context, owner string, q loop.ThreadQuery) (loop.ThreadPage, error) {
	if err := ctx.Err(); err != nil {
		return loop.ThreadPage{}, err
	}
	after, id, err := decodeCursor(q.Cursor)
	if err != nil {
		return loop.ThreadPage{}, err
	}
	n := q.PageSize()
	// Two statements rather than one with "$3 IS NULL OR …": a prepared
	// statement's generic plan could not use the cursor as an index
	// bound, and would scan the principal's threads from the newest.
	query, args := listFirst, []any{owner, q.Archived, n + 1}
	if after != nil {
		query, args = listAfter, []any{owner, q.Archived, n + 1, *after, id}
	}
	rows, err := s.pool.Query(ctx, query, args...)
	if err != nil {
		return loop.ThreadPage{}, s.fail(ctx, "threads", err)
	}
	list, err := pgx.CollectRows(rows, scanSummary)
	if err != nil {
		return loop.ThreadPage{}, s.fail(ctx, "threads", err)
	}
	var page loop.ThreadPage
	if len(list) > n {
		list = list[:n]
		page.Next = encodeCursor(list[n-1].Updated, list[n-1].ID)
	}
	page.Threads = list
	return page, nil
}

// UpdateThread implements [loop.ThreadStore]: one UPDATE of the thread's
// row, which leaves its version and its activity time alone.
func (s *Store) UpdateThread(ctx context.Context, threadID string, u loop.ThreadUpdate) (loop.ThreadSummary, error) {
	if err := ctx.Err(); err != nil {
		return loop.ThreadSummary{}, err
	}
	if !storable(threadID) {
		return loop.ThreadSummary{}, loop.ErrNotFound
	}
	if u.Title != nil && !storable(*u.Title) {
		return loop.ThreadSummary{}, ErrUnstorable
	}
	rows, err := s.pool.Query(ctx, `UPDATE agui_loop_threads
		SET title = coalesce($2, title), archived = coalesce($3, archived)
		WHERE thread_id = $1
		RETURNING `+summaryColumns, threadID, u.Title, u.Archived)
	if err != nil {
		return loop.ThreadSummary{}, s.fail(ctx, "update thread", err)
	}
	sum, err := pgx.CollectExactlyOneRow(rows, scanSummary)
	if errors.Is(err, pgx.ErrNoRows) {
		return loop.ThreadSummary{}, loop.ErrNotFound
	}
	if err != nil {
		return loop.ThreadSummary{}, s.fail(ctx, "update thread", err)
	}
	return sum, nil
}

func scanSummary(row pgx.CollectableRow) (loop.ThreadSummary, error) {
	var (
		sum    loop.ThreadSummary
		status string
		lease  *time.Time
		now    time.Time
	)
	err := row.Scan(&sum.ID, &sum.Title, &sum.Created, &sum.Updated, &sum.Messages, &sum.Archived, &status, &lease, &now)
	st := loop.Status(status)
	sum.RunActive = st == loop.StatusRunning && lease != nil && now.Before(*lease)
	sum.InterruptPending = st == loop.StatusAwaitingApproval || st == loop.StatusAwaitingClient
	return sum, err
}

// A cursor is the last listed thread's activity time (microseconds, the
// database's precision) and id, with a check of both, so a cursor the
// store did not hand out is refused rather than read as some position.
func encodeCursor(updated time.Time, id string) string {
	body := strconv.FormatInt(updated.UnixMicro(), 10) + "." + id
	sum := sha256.Sum256([]byte(body))
	return base64.RawURLEncoding.EncodeToString(append(sum[:4], body...))
}

// maxCursorMicros is the end of year 9999 in microseconds since 1970.
const maxCursorMicros = 253402300799999999

func decodeCursor(c string) (*time.Time, string, error) {
	if c == "" {
		return nil, "", nil
	}
	b, err := base64.RawURLEncoding.Strict().DecodeString(c)
	if err != nil || len(b) < 4 {
		return nil, "", loop.ErrBadCursor
	}
	sum := sha256.Sum256(b[4:])
	if string(sum[:4]) != string(b[:4]) {
		return nil, "", loop.ErrBadCursor
	}
	us, id, ok := strings.Cut(string(b[4:]), ".")
	n, err := strconv.ParseInt(us, 10, 64)
	// The check is no secret: a client can forge a cursor, so what it
	// holds must be what PostgreSQL takes (an id of text, a time from
	// 1970 to 9999), or the page would fail as an outage.
	if !ok || err != nil || n < 0 || n > maxCursorMicros || !storable(id) {
		return nil, "", loop.ErrBadCursor
	}
	t := time.UnixMicro(n)
	return &t, id, nil
}
