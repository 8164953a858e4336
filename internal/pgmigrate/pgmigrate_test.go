package pgmigrate_test

import (
	"os"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/agui-go/agui/internal/pgmigrate"
)

// Twenty replicas starting at once apply each migration exactly once;
// a later release adds its file; applying again changes nothing.
func TestApplyOnceConcurrently(t *testing.T) {
	pool, err := pgxpool.New(t.Context(), pg.DB(t))
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if v, err := pgmigrate.Apply(t.Context(), pool, "test", os.DirFS("testdata/a")); err != nil || v != 1 {
				t.Errorf("Apply: %d %v", v, err)
			}
		})
	}
	wg.Wait()
	for range 2 {
		if v, err := pgmigrate.Apply(t.Context(), pool, "test", os.DirFS("testdata/b")); err != nil || v != 2 {
			t.Fatalf("Apply of the second release: %d %v", v, err)
		}
	}
	// An older release on the newer schema leaves it alone.
	if v, err := pgmigrate.Apply(t.Context(), pool, "test", os.DirFS("testdata/a")); err != nil || v != 2 {
		t.Fatalf("Apply of the older release: %d %v", v, err)
	}
	var rows []int
	r, err := pool.Query(t.Context(), "SELECT n FROM pgmigrate_t ORDER BY n")
	if err != nil {
		t.Fatal(err)
	}
	for r.Next() {
		var n int
		if err := r.Scan(&n); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, n)
	}
	if len(rows) != 2 || rows[0] != 1 || rows[1] != 2 {
		t.Fatalf("rows %v, want [1 2]: a migration ran twice or not at all", rows)
	}
}

// A failing migration leaves the schema as it was.
func TestApplyFailureRollsBack(t *testing.T) {
	pool, err := pgxpool.New(t.Context(), pg.DB(t))
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	bad := fstest.MapFS{
		"migrations/0001_ok.sql":  {Data: []byte("CREATE TABLE pgmigrate_ok (n int);")},
		"migrations/0002_bad.sql": {Data: []byte("CREATE TABLE nonsense (")},
	}
	if _, err := pgmigrate.Apply(t.Context(), pool, "bad", bad); err == nil {
		t.Fatal("a broken migration applied")
	}
	var n int
	if err := pool.QueryRow(t.Context(), "SELECT count(*) FROM pg_tables WHERE tablename = 'pgmigrate_ok'").Scan(&n); err != nil || n != 0 {
		t.Fatalf("the first file of a failed batch stayed: %d %v", n, err)
	}
}

func TestReadRefusesGaps(t *testing.T) {
	for name, fsys := range map[string]fstest.MapFS{
		"gap":   {"migrations/0001_a.sql": {}, "migrations/0003_c.sql": {}},
		"nonum": {"migrations/first.sql": {}},
		"twice": {"migrations/0001_a.sql": {}, "migrations/01_b.sql": {}},
		"zero":  {"migrations/0000_a.sql": {}},
	} {
		if _, err := pgmigrate.Read(fsys); err == nil {
			t.Errorf("%s: read", name)
		}
	}
}
