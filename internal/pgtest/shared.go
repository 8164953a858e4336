package pgtest

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"go.uber.org/goleak"
)

// Shared is the one server of a test binary: started by the first [DB]
// call, stopped by [Shared.Main] once every test has run. Its methods are
// safe for concurrent use.
type Shared struct {
	once sync.Once
	srv  *Server
	err  error
	n    atomic.Int64
}

// NewShared returns a server not started yet.
func NewShared() *Shared { return &Shared{} }

// Main runs the tests of m, stops the server if a test started it, then
// fails the binary when a goroutine leaked (goleak, as every package's
// TestMain checks), and exits.
func (s *Shared) Main(m *testing.M) {
	code := m.Run()
	if s.srv != nil {
		s.srv.Close()
	}
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintf(os.Stderr, "goleak: errors on successful test run: %v\n", err)
			code = 1
		}
	}
	os.Exit(code)
}

// Server returns the running server, starting it on the first call. It
// skips or fails t like [Binary] when postgres is missing, and fails t
// when the server could not start.
func (s *Shared) Server(t testing.TB) *Server {
	t.Helper()
	bin := Binary(t)
	s.once.Do(func() { s.srv, s.err = start(context.WithoutCancel(t.Context()), bin) })
	if s.err != nil {
		t.Fatalf("pgtest: %v", s.err)
	}
	return s.srv
}

// DB creates a database of t's own on the server and returns its URL;
// the database is dropped when t ends.
func (s *Shared) DB(t testing.TB) string {
	t.Helper()
	srv := s.Server(t)
	name := fmt.Sprintf("t%d_%s", s.n.Add(1), sanitize(t.Name()))
	u, err := srv.CreateDB(t.Context(), name)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(func() {
		if err := srv.DropDB(context.Background(), name); err != nil {
			t.Errorf("pgtest: %v", err)
		}
	})
	return u
}

// sanitize keeps a database name readable in the server's log and within
// PostgreSQL's 63 bytes.
func sanitize(name string) string {
	name = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, name)
	return strings.ToLower(name[:min(len(name), 40)])
}
