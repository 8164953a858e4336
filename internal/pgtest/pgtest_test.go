package pgtest

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

func TestSharedDatabasesAreSeparate(t *testing.T) {
	a, b := shared.DB(t), shared.DB(t)
	if a == b || !strings.HasPrefix(a, "postgres://postgres@127.0.0.1:") {
		t.Fatalf("urls %q %q", a, b)
	}
	ca, err := pgx.Connect(t.Context(), a)
	if err != nil {
		t.Fatal(err)
	}
	defer ca.Close(t.Context())
	if _, err := ca.Exec(t.Context(), "CREATE TABLE x (n int); INSERT INTO x VALUES (1)"); err != nil {
		t.Fatal(err)
	}
	cb, err := pgx.Connect(t.Context(), b)
	if err != nil {
		t.Fatal(err)
	}
	defer cb.Close(t.Context())
	var n int
	if err := cb.QueryRow(t.Context(), "SELECT count(*) FROM pg_tables WHERE tablename = 'x'").Scan(&n); err != nil || n != 0 {
		t.Fatalf("the second database sees the first's table: %d %v", n, err)
	}
	var fsync string
	if err := cb.QueryRow(t.Context(), "SHOW fsync").Scan(&fsync); err != nil || fsync != "off" {
		t.Fatalf("fsync %q %v", fsync, err)
	}
}

// A server of a test's own: stopped by its process id, its directory
// removed; what was committed survives a restart.
func TestStartStopRestart(t *testing.T) {
	s := Start(t)
	pid := s.Pid()
	if pid == 0 {
		t.Fatal("no pid")
	}
	u, err := s.CreateDB(t.Context(), "keep")
	if err != nil {
		t.Fatal(err)
	}
	c, err := pgx.Connect(t.Context(), u)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Exec(t.Context(), "CREATE TABLE x (n int); INSERT INTO x VALUES (7)"); err != nil {
		t.Fatal(err)
	}
	c.Close(t.Context())
	s.Stop()
	if s.Pid() != 0 {
		t.Fatal("pid after stop")
	}
	if _, err := pgx.Connect(t.Context(), u); err == nil {
		t.Fatal("a stopped server answers")
	}
	s.Stop() // twice is fine
	if err := s.Restart(t.Context()); err != nil {
		t.Fatal(err)
	}
	c, err = pgx.Connect(t.Context(), u)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(t.Context())
	var n int
	if err := c.QueryRow(t.Context(), "SELECT n FROM x").Scan(&n); err != nil || n != 7 {
		t.Fatalf("after a restart: %d %v", n, err)
	}
	dir := s.dir
	c.Close(t.Context())
	s.Close()
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the directory is still there: %v", err)
	}
}
