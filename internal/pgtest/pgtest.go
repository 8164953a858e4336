package pgtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/agui-go/agui/internal/sharedtest"
)

// Server is one postgres process and its data directory. Its methods are
// safe for concurrent use.
type Server struct {
	bin  string // the directory of initdb and postgres
	dir  string
	port int
	cred *syscall.Credential // nil: run as ourselves

	mu   sync.Mutex
	proc *exec.Cmd
	log  *bytes.Buffer
	done chan error
}

// errMissing is locate's error when no postgres is installed.
var errMissing = errors.New("postgres is not installed: the test command (bash test/all.sh) installs it, or run apt-get install postgresql")

// locate returns the directory holding initdb and postgres: the newest
// /usr/lib/postgresql/<version>/bin, else the directory of a postgres on
// PATH.
func locate() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(dirs, func(a, b string) int { return version(b) - version(a) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	if p, err := exec.LookPath("postgres"); err == nil {
		return filepath.Dir(p), nil
	}
	return "", errMissing
}

// version is the major version in a /usr/lib/postgresql/<version>/bin path.
func version(dir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
	return n
}

// Binary returns the directory of initdb and postgres. When they are
// missing it ends t as [sharedtest.Missing] does: it skips the test, or
// fails it when the CI environment variable is "true".
func Binary(t testing.TB) string {
	t.Helper()
	d, err := locate()
	if err != nil {
		sharedtest.Missing(t, "%v", err)
	}
	return d
}

// Start starts a server for t alone and stops it when t ends. It skips
// or fails t like Binary when postgres is missing.
func Start(t testing.TB) *Server {
	t.Helper()
	s, err := start(t.Context(), Binary(t))
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}

// start runs initdb in a new temporary directory and starts postgres on
// it.
func start(ctx context.Context, bin string) (*Server, error) {
	s := &Server{bin: bin}
	var err error
	if s.cred, err = credential(); err != nil {
		return nil, err
	}
	// Not t.TempDir: under root the postgres user must reach the
	// directory, and a test's temporary directory sits in one only root
	// may enter.
	if s.dir, err = os.MkdirTemp("", "pgtest-"); err != nil {
		return nil, err
	}
	if err := s.initdb(ctx); err != nil {
		os.RemoveAll(s.dir)
		return nil, err
	}
	for range 5 { // a free port may be taken between picking and binding it
		if s.port, err = freePort(); err != nil {
			break
		}
		if err = s.Restart(ctx); err == nil {
			return s, nil
		}
	}
	os.RemoveAll(s.dir)
	return nil, err
}

// credential is the postgres user's when we are root (postgres refuses
// to run as root), nil otherwise.
func credential() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("running as root, and there is no postgres user to run the server as: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

// command is one of the server's programs, run as the server's user.
func (s *Server) command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, filepath.Join(s.bin, name), args...)
	cmd.Dir = s.dir
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	if s.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	}
	return cmd
}

func (s *Server) initdb(ctx context.Context) error {
	if s.cred != nil {
		if err := os.Chown(s.dir, int(s.cred.Uid), int(s.cred.Gid)); err != nil {
			return err
		}
	}
	out, err := s.command(ctx, "initdb", "-D", s.data(), "-U", "postgres", "--auth=trust",
		"--encoding=UTF8", "--locale=C", "--no-sync").CombinedOutput()
	if err != nil {
		return fmt.Errorf("initdb: %v\n%s", err, out)
	}
	return nil
}

func (s *Server) data() string { return filepath.Join(s.dir, "data") }

// Restart starts the server, stopped or never started, on its port and
// directory, and returns once it accepts connections.
func (s *Server) Restart(ctx context.Context) error {
	cmd := s.command(context.WithoutCancel(ctx), "postgres", "-D", s.data(),
		"-p", strconv.Itoa(s.port), "-k", s.dir, "-c", "listen_addresses=127.0.0.1",
		// A test server needs no durability: nothing survives it.
		"-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
		"-c", "max_connections=300", "-c", "shared_buffers=32MB")
	log := new(bytes.Buffer)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }() // joined by Stop, or below
	s.mu.Lock()
	s.proc, s.log, s.done = cmd, log, done
	s.mu.Unlock()
	if err := s.ready(ctx, done); err != nil {
		s.Stop()
		return fmt.Errorf("postgres on port %d: %w\n%s", s.port, err, log.String())
	}
	return nil
}

// ready polls a connection until the server answers: postgres offers no
// other signal of readiness on a port (pg_isready polls too). The wait is
// bounded, and ends early when the process exits.
func (s *Server) ready(ctx context.Context, done <-chan error) error {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		c, err := pgx.Connect(ctx, s.URL("postgres"))
		if err == nil {
			return c.Close(ctx)
		}
		select {
		case <-tick.C:
		case err := <-done:
			s.mu.Lock()
			s.done = nil
			s.mu.Unlock()
			return fmt.Errorf("exited before it was ready: %v", err)
		case <-ctx.Done():
			return fmt.Errorf("not ready: %w", err)
		}
	}
}

// URL is the postgres:// URL of database db on the server.
func (s *Server) URL(db string) string {
	u := url.URL{Scheme: "postgres", User: url.User("postgres"), Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port)),
		Path: "/" + db, RawQuery: "sslmode=disable"}
	return u.String()
}

// Pid is the running server's process id, or 0 when it is stopped.
func (s *Server) Pid() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proc == nil || s.done == nil {
		return 0
	}
	return s.proc.Process.Pid
}

// Stop ends the server with a fast shutdown (SIGINT: sessions are ended,
// what was committed stays) and waits for it. Stopping a stopped server
// does nothing.
func (s *Server) Stop() {
	s.mu.Lock()
	p, done := s.proc, s.done
	s.proc, s.done = nil, nil
	s.mu.Unlock()
	if p == nil || done == nil {
		return
	}
	_ = p.Process.Signal(syscall.SIGINT)
	<-done
}

// Close stops the server and removes its directory.
func (s *Server) Close() {
	s.Stop()
	os.RemoveAll(s.dir)
}

// CreateDB creates a database on the server, a copy of template1, and
// returns its URL.
func (s *Server) CreateDB(ctx context.Context, name string) (string, error) {
	c, err := pgx.Connect(ctx, s.URL("postgres"))
	if err != nil {
		return "", err
	}
	defer c.Close(context.WithoutCancel(ctx))
	if _, err := c.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()+" TEMPLATE template1"); err != nil {
		return "", err
	}
	return s.URL(name), nil
}

// DropDB drops a database of the server, ending its sessions.
func (s *Server) DropDB(ctx context.Context, name string) error {
	c, err := pgx.Connect(ctx, s.URL("postgres"))
	if err != nil {
		return err
	}
	defer c.Close(context.WithoutCancel(ctx))
	_, err = c.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)")
	return err
}

// freePort returns a loopback TCP port nothing listens on right now.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
