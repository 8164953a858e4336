package pgstore_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/internal/redistest"
	"github.com/agui-go/agui/loop"
	"github.com/agui-go/agui/loop/pgstore"
	"github.com/agui-go/agui/loop/redisstore"
	"github.com/agui-go/agui/loop/storetest"
)

// reportPercentiles reports the p50 and p99 of ds in microseconds.
func reportPercentiles(b *testing.B, ds []time.Duration, name string) {
	if len(ds) == 0 {
		return
	}
	slices.Sort(ds)
	at := func(q float64) float64 { return float64(ds[int(q*float64(len(ds)-1))].Nanoseconds()) / 1e3 }
	b.ReportMetric(at(0.50), name+"-p50-µs")
	b.ReportMetric(at(0.99), name+"-p99-µs")
}

// fill inserts perOwner threads for each of owners principals straight
// into the table (as many saves would leave them, without their
// transcripts), each with its own activity time.
func fill(b *testing.B, pool *pgxpool.Pool, owners, perOwner int) {
	b.Helper()
	if _, err := pool.Exec(b.Context(), `INSERT INTO agui_loop_threads
		(thread_id, version, owner, status, doc, msg_count, msg_head, created_at, updated_at)
		SELECT 't' || i, 1, 'p' || (i % $1), 'idle', '\x7b7d', 4, '\x', now(), now() - i * interval '1 millisecond'
		FROM generate_series(1, $2::integer) i`, owners, owners*perOwner); err != nil {
		b.Fatal(err)
	}
	if _, err := pool.Exec(b.Context(), "VACUUM ANALYZE agui_loop_threads"); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkThreadList times the thread list's calls for one principal
// who has 10,000 threads, alone in the table and among 100 principals
// with 10,000 each (a million threads): the first page, and a page deep
// in the list (its cursor picked at random among the 100 pages of 100),
// 50 threads a page.
func BenchmarkThreadList(b *testing.B) {
	for _, owners := range []int{1, 100} {
		b.Run(fmt.Sprint("principals=", owners), func(b *testing.B) {
			s, pool := newStore(b)
			fill(b, pool, owners, 10_000)
			ctx := b.Context()
			var cursors []string
			for q := (loop.ThreadQuery{Limit: 100}); ; {
				p, err := s.Threads(ctx, "p0", q)
				if err != nil {
					b.Fatal(err)
				}
				if p.Next == "" {
					break
				}
				cursors = append(cursors, p.Next)
				q.Cursor = p.Next
			}
			if len(cursors) != 99 {
				b.Fatalf("%d pages of 100, want 100", len(cursors)+1)
			}
			var first, deep []time.Duration
			i := 0
			for b.Loop() {
				t0 := time.Now()
				if p, err := s.Threads(ctx, "p0", loop.ThreadQuery{Limit: 50}); err != nil || len(p.Threads) != 50 {
					b.Fatal(len(p.Threads), err)
				}
				t1 := time.Now()
				if p, err := s.Threads(ctx, "p0", loop.ThreadQuery{Limit: 50, Cursor: cursors[(i*37)%len(cursors)]}); err != nil || len(p.Threads) != 50 {
					b.Fatal(len(p.Threads), err)
				}
				first, deep = append(first, t1.Sub(t0)), append(deep, time.Since(t1))
				i++
			}
			reportPercentiles(b, first, "first")
			reportPercentiles(b, deep, "deep")
		})
	}
}

// BenchmarkLoopTurn runs one loop run (a tool call, then an answer: a
// load and the run's saves) on the in-memory store, on Redis and on
// PostgreSQL in turn (and on PostgreSQL through a Store that did not save
// the thread, as another replica), on a new thread and on a thread that already holds
// 400 messages, and reports each one's p50 and p99 (the runs' own time:
// saving the long threads beforehand is not counted).
func BenchmarkLoopTurn(b *testing.B) {
	_, pool := newStore(b)
	ps, err := pgstore.New(pool)
	if err != nil {
		b.Fatal(err)
	}
	rc := redis.NewClient(&redis.Options{Addr: redistest.Start(b).Addr()})
	b.Cleanup(func() { _ = rc.Close() })
	rs, err := redisstore.New(rc)
	if err != nil {
		b.Fatal(err)
	}
	echo, err := loop.NewTool("echo", "echoes", func(ctx context.Context, in struct {
		Q string `json:"q"`
	}) (string, error) {
		return in.Q, nil
	})
	if err != nil {
		b.Fatal(err)
	}
	model := loop.Script(loop.Turn{Calls: []loop.ScriptedCall{{ID: "c1", Name: "echo", Args: `{"q":"x"}`}}}, loop.Turn{Text: "done"})
	// postgres-cold is the same database through a Store of its own,
	// whose long threads another Store (another replica) saved: its
	// run's load reads and decodes the whole transcript.
	cold, err := pgstore.New(pool)
	if err != nil {
		b.Fatal(err)
	}
	names := []string{"memory", "redis", "postgres", "postgres-cold"}
	stores := map[string]loop.Store{"memory": loop.NewMemoryStore(), "redis": rs, "postgres": ps, "postgres-cold": cold}
	savers := map[string]loop.Store{"memory": stores["memory"], "redis": rs, "postgres": ps, "postgres-cold": ps}
	agents := map[string]*loop.Agent{}
	for _, name := range names {
		if agents[name], err = loop.New(model, loop.WithTools(echo), loop.WithCheckpoints(stores[name])); err != nil {
			b.Fatal(err)
		}
	}
	// long is a thread of 400 messages (100 exchanges), about 60 KB
	// encoded.
	text := strings.Repeat("lorem ipsum ", 10)
	long := &loop.Checkpoint{ThreadID: "long", Status: loop.StatusIdle}
	for i := range 100 {
		id := fmt.Sprint(i)
		long.Messages = append(long.Messages,
			&agui.UserMessage{ID: "u" + id, Content: agui.TextContent(text)},
			&agui.AssistantMessage{ID: "a" + id, ToolCalls: []agui.ToolCall{{ID: "c" + id, Function: agui.FunctionCall{Name: "echo", Arguments: `{"q":"x"}`}}}},
			&agui.ToolMessage{ID: "t" + id, ToolCallID: "c" + id, Content: agui.TextContent("x")},
			&agui.AssistantMessage{ID: "b" + id, Content: text},
		)
	}
	times := map[string][]time.Duration{}
	n := 0
	for b.Loop() {
		for _, name := range names {
			// Each run has a thread of 400 messages of its own, saved
			// before its timer starts.
			long.ThreadID = fmt.Sprint(name, "-long", n)
			if _, err := savers[name].Save(b.Context(), long, 0, 0); err != nil {
				b.Fatal(err)
			}
			for _, thread := range []string{fmt.Sprint(name, "-new", n), long.ThreadID} {
				t0 := time.Now()
				res, err := agents[name].Execute(context.Background(), loop.Input{
					ThreadID: thread, Messages: []agui.Message{&agui.UserMessage{ID: fmt.Sprint("go", n), Content: agui.TextContent("go")}},
				})
				d := time.Since(t0)
				if err != nil || res.FinishReason != loop.FinishStop {
					b.Fatal(res.FinishReason, err)
				}
				key := name + "-new"
				if thread == long.ThreadID {
					key = name + "-long"
				}
				times[key] = append(times[key], d)
			}
		}
		n++
	}
	for _, name := range names {
		reportPercentiles(b, times[name+"-new"], name+"-new")
		reportPercentiles(b, times[name+"-long"], name+"-long")
	}
}

// BenchmarkThreads is storetest.BenchThreads, the measurement every
// ThreadStore's list takes, on a database of its own.
func BenchmarkThreads(b *testing.B) {
	s, _ := newStore(b)
	storetest.BenchThreads(b, s)
}
