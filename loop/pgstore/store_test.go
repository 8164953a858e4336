package pgstore_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/loop/pgstore"
	"github.com/agui-go/agui/loop/storetest"
)

// newPool returns a pool on a fresh, migrated database of t's own.
func newPool(t testing.TB) *pgxpool.Pool {
	t.Helper()
	pool, err := pgxpool.New(t.Context(), pg.DB(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	if err := pgstore.Migrate(t.Context(), pool); err != nil {
		t.Fatal(err)
	}
	return pool
}

func newStore(t testing.TB) (*pgstore.Store, *pgxpool.Pool) {
	t.Helper()
	pool := newPool(t)
	s, err := pgstore.New(pool)
	if err != nil {
		t.Fatal(err)
	}
	return s, pool
}

// Every subtest gets a database of its own on one real postgres.
func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) loop.Store {
		s, _ := newStore(t)
		return s
	})
}

// The same with no transcript cache: every load reads the messages and
// every save encodes them all, so a thread's saves cost the square of its
// length, and the long thread is driven for 100 turns (the paths of 1,000,
// which TestConformance and TestLongThreadOnTwoReplicas drive, at a
// hundredth of the cost: 1,000 took 45 s under the race detector).
func TestConformanceNoCache(t *testing.T) {
	storetest.Run(t, func(t *testing.T) loop.Store {
		s, err := pgstore.New(newPool(t), pgstore.WithCacheBytes(0))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}, storetest.WithLongThreadTurns(100))
}

// A store loading the version it saved reads the thread's row alone:
// with the message rows gone behind its back it still returns its
// transcript, where a store that holds none finds the rows missing.
func TestLoadOfAKnownVersionReadsTheRowAlone(t *testing.T) {
	a, pool := newStore(t)
	ctx := t.Context()
	v, err := a.Save(ctx, &loop.Checkpoint{ThreadID: "t", Messages: []agui.Message{user("1"), user("2")}}, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, "DELETE FROM agui_loop_messages"); err != nil {
		t.Fatal(err)
	}
	cp, got, err := a.Load(ctx, "t")
	if err != nil || got != v || len(cp.Messages) != 2 || cp.Messages[1].MessageID() != "2" {
		t.Fatalf("the store that saved it: %d %v", got, err)
	}
	b, err := pgstore.New(pool)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := b.Load(ctx, "t"); !errors.Is(err, loop.ErrCheckpointFormat) {
		t.Fatalf("a store that holds no transcript: %v, want ErrCheckpointFormat (the rows are gone)", err)
	}
	if _, err := pgstore.New(pool, pgstore.WithCacheBytes(-1)); err == nil {
		t.Fatal("a negative cache bound accepted")
	}
}

func TestMigrateTwice(t *testing.T) {
	pool := newPool(t)
	if err := pgstore.Migrate(t.Context(), pool); err != nil {
		t.Fatalf("a second Migrate: %v", err)
	}
	var v int
	if err := pool.QueryRow(t.Context(), "SELECT version FROM agui_schema_version WHERE component = 'loop'").Scan(&v); err != nil || v != 1 {
		t.Fatalf("schema version %d %v, want 1", v, err)
	}
}

func user(id string) agui.Message {
	return &agui.UserMessage{ID: id, Content: agui.TextContent("hello " + id)}
}

// rowVersions returns each message row's seq and xmin (the transaction
// that wrote it) of thread, in order.
func rowVersions(t *testing.T, pool *pgxpool.Pool, thread string) []string {
	t.Helper()
	rows, err := pool.Query(t.Context(), "SELECT seq || ':' || message_id || ':' || xmin::text FROM agui_loop_messages WHERE thread_id = $1 ORDER BY seq", thread)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// A save whose stored transcript is a prefix of its own writes only the
// new messages: the stored rows keep the transaction that wrote them. A
// rewritten or shortened transcript is written whole, and loads back as
// saved.
func TestSaveWritesOnlyNewMessages(t *testing.T) {
	s, pool := newStore(t)
	ctx := t.Context()
	cp := &loop.Checkpoint{ThreadID: "t", Status: loop.StatusIdle, Messages: []agui.Message{user("1"), user("2"), user("3")}}
	v, err := s.Save(ctx, cp, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	first := rowVersions(t, pool, "t")
	cp.Messages = append(cp.Messages, user("4"))
	if v, err = s.Save(ctx, cp, v, 3); err != nil {
		t.Fatal(err)
	}
	second := rowVersions(t, pool, "t")
	if len(second) != 4 || !slices.Equal(second[:3], first) {
		t.Fatalf("an appending save rewrote stored messages:\nbefore %v\nafter  %v", first, second)
	}
	// The same transcript again (a lease renewal) writes no message.
	if v, err = s.Save(ctx, cp, v, len(cp.Messages)); err != nil {
		t.Fatal(err)
	}
	if again := rowVersions(t, pool, "t"); !slices.Equal(again, second) {
		t.Fatalf("a save of the same transcript rewrote messages: %v", again)
	}
	for _, c := range []struct {
		name string
		msgs []agui.Message
	}{
		{"changed", []agui.Message{user("1"), user("2x"), user("3"), user("4"), user("5")}},
		{"shortened", []agui.Message{user("1")}},
		{"emptied", nil},
		{"regrown", []agui.Message{user("a"), user("b")}},
	} {
		cp.Messages = c.msgs
		if v, err = s.Save(ctx, cp, v, 0); err != nil {
			t.Fatal(err)
		}
		got, gv, err := s.Load(ctx, "t")
		if err != nil || gv != v {
			t.Fatalf("%s: load %d %v", c.name, gv, err)
		}
		var want, have []string
		for _, m := range c.msgs {
			want = append(want, m.MessageID())
		}
		for _, m := range got.Messages {
			have = append(have, m.MessageID())
		}
		if !slices.Equal(have, want) || len(rowVersions(t, pool, "t")) != len(want) {
			t.Fatalf("%s: loaded %v, want %v", c.name, have, want)
		}
	}
}

// The thread list is a range scan of its index, not a scan of the table.
func TestThreadListUsesItsIndex(t *testing.T) {
	s, pool := newStore(t)
	ctx := t.Context()
	if _, err := pool.Exec(ctx, `INSERT INTO agui_loop_threads
		(thread_id, version, owner, status, doc, msg_count, msg_head, created_at, updated_at)
		SELECT 't' || i, 1, 'p' || (i % 100), 'idle', '\x7b7d', 0, '\x', now(), now() - i * interval '1 second'
		FROM generate_series(1, 20000) i`); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, "ANALYZE agui_loop_threads"); err != nil {
		t.Fatal(err)
	}
	page, err := s.Threads(ctx, "p7", loop.ThreadQuery{Limit: 50})
	if err != nil || len(page.Threads) != 50 || page.Next == "" {
		t.Fatalf("first page: %d threads, next %q, %v", len(page.Threads), page.Next, err)
	}
	// The page after a cursor, planned as a prepared statement's generic
	// plan (what pgx's statement cache may run): the cursor bounds the
	// index scan, nothing is sorted or filtered.
	conn, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	for _, q := range []string{"SET plan_cache_mode = force_generic_plan",
		`PREPARE after(text, boolean, integer, timestamptz, text) AS SELECT thread_id FROM agui_loop_threads
		WHERE owner = $1 AND archived = $2 AND (updated_at, thread_id) < ($4, $5)
		ORDER BY updated_at DESC, thread_id DESC LIMIT $3`} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	var plan []string
	rows, err := conn.Query(ctx, "EXPLAIN EXECUTE after('p7', false, 51, now() - interval '1000 seconds', 't1000')")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, line)
	}
	all := strings.Join(plan, "\n")
	if !strings.Contains(all, "agui_loop_threads_list") || !strings.Contains(all, "ROW(updated_at, thread_id) < ROW($4, $5)") ||
		strings.Contains(all, "Seq Scan") || strings.Contains(all, "Sort") || strings.Contains(all, "Filter") {
		t.Fatalf("the list query's plan is not a range scan of the list index from the cursor:\n%s", all)
	}
	n := 50
	for q := (loop.ThreadQuery{Limit: 100, Cursor: page.Next}); ; {
		p, err := s.Threads(ctx, "p7", q)
		if err != nil {
			t.Fatal(err)
		}
		n += len(p.Threads)
		if p.Next == "" {
			break
		}
		q.Cursor = p.Next
	}
	if n != 200 {
		t.Fatalf("p7 lists %d threads, want 200", n)
	}
}

// Stores on one database (replicas) each remember what they last saved
// or loaded: one whose memory is stale gets a conflict, and one that
// knows nothing of the thread (its save takes the locking transaction)
// still writes only the new messages.
func TestSaveAcrossStores(t *testing.T) {
	a, pool := newStore(t)
	b, err := pgstore.New(pool)
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	cp := &loop.Checkpoint{ThreadID: "t", Status: loop.StatusIdle, Messages: []agui.Message{user("1")}}
	va, err := a.Save(ctx, cp, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	got, vb, err := b.Load(ctx, "t")
	if err != nil || vb != va {
		t.Fatalf("b loads %d %v, want %d", vb, err, va)
	}
	got.Messages = append(got.Messages, user("2"))
	if vb, err = b.Save(ctx, got, vb, 1); err != nil {
		t.Fatal(err)
	}
	cp.Messages = append(cp.Messages, user("x"))
	if _, err := a.Save(ctx, cp, va, 1); !errors.Is(err, loop.ErrConflict) {
		t.Fatalf("a saves over the version b replaced: %v, want ErrConflict", err)
	}
	before := rowVersions(t, pool, "t")
	c, err := pgstore.New(pool)
	if err != nil {
		t.Fatal(err)
	}
	got.Messages = append(got.Messages, user("3"))
	vc, err := c.Save(ctx, got, vb, 2)
	if err != nil {
		t.Fatal(err)
	}
	if after := rowVersions(t, pool, "t"); len(after) != 3 || !slices.Equal(after[:2], before) {
		t.Fatalf("a save by a store that knew nothing rewrote stored messages:\nbefore %v\nafter  %v", before, after)
	}
	if _, err := b.Save(ctx, got, vb, 2); !errors.Is(err, loop.ErrConflict) {
		t.Fatalf("b saves over its own stale version: %v, want ErrConflict", err)
	}
	final, v, err := a.Load(ctx, "t")
	if err != nil || v != vc || len(final.Messages) != 3 || final.Messages[2].MessageID() != "3" {
		t.Fatalf("the thread: version %d (want %d), %d messages, %v", v, vc, len(final.Messages), err)
	}
}
