package pgstore_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/agui-go/agui/loop/pgstore"
	"github.com/agui-go/agui/loop/storetest"
)

// A replica resumes a 1,000-turn thread another replica wrote turn by
// turn: two stores, each on its own pool (and transcript cache), on one
// database.
func TestLongThreadOnTwoReplicas(t *testing.T) {
	url := pg.DB(t)
	stores := make([]*pgstore.Store, 2)
	for i := range stores {
		pool, err := pgxpool.New(t.Context(), url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(pool.Close)
		if err := pgstore.Migrate(t.Context(), pool); err != nil {
			t.Fatal(err)
		}
		if stores[i], err = pgstore.New(pool); err != nil {
			t.Fatal(err)
		}
	}
	storetest.LongThread(t, stores[0], stores[1])
}

// sentBytes is a query tracer that counts the bytes of the statements and
// arguments a pool sends (a number as 8 bytes).
type sentBytes struct{ n atomic.Int64 }

func (s *sentBytes) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	n := len(d.SQL)
	for _, a := range d.Args {
		switch a := a.(type) {
		case string:
			n += len(a)
		case []byte:
			n += len(a)
		case []string:
			for _, x := range a {
				n += len(x)
			}
		case [][]byte:
			for _, x := range a {
				n += len(x)
			}
		case []int32:
			n += 4 * len(a)
		default:
			n += len(fmt.Sprint(a))
		}
	}
	s.n.Add(int64(n))
	return ctx
}

func (s *sentBytes) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// BenchmarkTurns is storetest.BenchTurns on a local postgres, with the
// bytes of the statements the pool sends.
func BenchmarkTurns(b *testing.B) {
	cfg, err := pgxpool.ParseConfig(pg.DB(b))
	if err != nil {
		b.Fatal(err)
	}
	sent := &sentBytes{}
	cfg.ConnConfig.Tracer = sent
	pool, err := pgxpool.NewWithConfig(b.Context(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(pool.Close)
	if err := pgstore.Migrate(b.Context(), pool); err != nil {
		b.Fatal(err)
	}
	s, err := pgstore.New(pool)
	if err != nil {
		b.Fatal(err)
	}
	storetest.BenchTurns(b, s, sent.n.Load)
}
