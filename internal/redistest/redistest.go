package redistest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/agui-go/agui/internal/sharedtest"
)

// Option configures Start.
type Option func(*config)

type config struct {
	appendOnly bool
	// args are added to redis-server's command line.
	args []string
}

// AppendOnly turns Redis's append-only file on with appendfsync always
// (default off, with RDB snapshots off too: nothing is persisted), so a
// restarted server keeps every write it acknowledged.
func AppendOnly() Option { return func(c *config) { c.appendOnly = true } }

// Server is one redis-server process. Its methods are safe for concurrent
// use.
type Server struct {
	t    testing.TB
	bin  string
	dir  string
	port int
	cfg  config

	mu   sync.Mutex
	proc *process
}

// process is one running redis-server; drained is closed once its output
// reached EOF, which is when it exited.
type process struct {
	cmd     *exec.Cmd
	drained chan struct{}
	waited  chan error
}

// Binary returns the path of redis-server. When it is missing it ends t
// as [sharedtest.Missing] does: it skips the test, or fails it when the CI
// environment variable is "true".
func Binary(t testing.TB) string {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		sharedtest.Missing(t, "redis-server is not on PATH: the test command (bash test/all.sh) installs it, or run apt-get install redis-server")
	}
	return bin
}

// Start starts a redis-server for t and stops it when t ends. It skips
// or fails t like Binary when there is no redis-server.
func Start(t testing.TB, opts ...Option) *Server {
	t.Helper()
	s := &Server{t: t, bin: Binary(t), dir: t.TempDir()}
	for _, o := range opts {
		o(&s.cfg)
	}
	var err error
	for range 5 { // a free port may be taken between picking and binding it
		if s.port, err = freePort(); err != nil {
			t.Fatal(err)
		}
		if err = s.start(); err == nil {
			break
		}
	}
	if err != nil {
		t.Fatalf("redistest: %v", err)
	}
	t.Cleanup(s.Stop)
	return s
}

// Addr is the server's host:port.
func (s *Server) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port)) }

// URL is the server's redis:// URL.
func (s *Server) URL() string { return "redis://" + s.Addr() }

// Pid is the running server's process id, or 0 when it is stopped.
func (s *Server) Pid() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proc == nil {
		return 0
	}
	return s.proc.cmd.Process.Pid
}

// Stop ends the server (SIGTERM, which makes Redis flush its append-only
// file) and waits for it. Stopping a stopped server does nothing.
func (s *Server) Stop() { s.stop(syscall.SIGTERM) }

// Kill ends the server with SIGKILL and waits for it: what it had not
// written to disk is lost.
func (s *Server) Kill() { s.stop(syscall.SIGKILL) }

// Restart starts the stopped server again on the same port and directory.
func (s *Server) Restart() {
	s.t.Helper()
	if err := s.start(); err != nil {
		s.t.Fatalf("redistest: restart: %v", err)
	}
}

func (s *Server) stop(sig syscall.Signal) {
	s.mu.Lock()
	p := s.proc
	s.proc = nil
	s.mu.Unlock()
	if p == nil {
		return
	}
	_ = p.cmd.Process.Signal(sig)
	<-p.drained
	<-p.waited
}

func (s *Server) start() error {
	args := []string{
		"--port", strconv.Itoa(s.port), "--bind", "127.0.0.1",
		"--dir", s.dir, "--save", "", "--logfile", "", "--loglevel", "notice",
		"--daemonize", "no", "--databases", "1",
	}
	if s.cfg.appendOnly {
		args = append(args, "--appendonly", "yes", "--appendfsync", "always")
	} else {
		args = append(args, "--appendonly", "no")
	}
	args = append(args, s.cfg.args...)
	cmd := exec.Command(s.bin, args...)
	cmd.Dir = s.dir
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		return err
	}
	p := &process{cmd: cmd, drained: make(chan struct{}), waited: make(chan error, 1)}
	ready := make(chan struct{})
	var log strings.Builder
	go func() { // joined by stop or by the failure below, through drained
		defer close(p.drained)
		sc := bufio.NewScanner(out)
		signalled := false
		for sc.Scan() {
			if !signalled {
				log.WriteString(sc.Text() + "\n")
				if strings.Contains(sc.Text(), "Ready to accept connections") {
					signalled = true
					close(ready)
				}
			}
		}
		_, _ = io.Copy(io.Discard, out)
	}()
	select {
	case <-ready:
	case <-p.drained:
		p.waited <- cmd.Wait()
		return fmt.Errorf("redis-server on port %d exited before it was ready: %v\n%s", s.port, <-p.waited, log.String())
	}
	go func() { p.waited <- cmd.Wait() }() // joined by stop
	s.mu.Lock()
	s.proc = p
	s.mu.Unlock()
	if err := s.ping(); err != nil {
		s.stop(syscall.SIGKILL)
		return err
	}
	return nil
}

// ping checks that the server answers on its address.
func (s *Server) ping() error {
	line, err := s.command("PING")
	if err != nil {
		return err
	}
	if line != "+PONG\r\n" {
		return errors.New("redis-server answered PING with " + strconv.Quote(line))
	}
	return nil
}

// command sends one inline command and returns the first line of its
// reply (for a bulk string, the first line of the string).
func (s *Server) command(cmd string) (string, error) {
	c, err := net.Dial("tcp", s.Addr())
	if err != nil {
		return "", err
	}
	defer c.Close()
	if _, err := c.Write([]byte(cmd + "\r\n")); err != nil {
		return "", err
	}
	r := bufio.NewReader(c)
	line, err := r.ReadString('\n')
	if err == nil && strings.HasPrefix(line, "$") && line != "$-1\r\n" {
		line, err = r.ReadString('\n')
	}
	return line, err
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
