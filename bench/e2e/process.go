package e2e

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// Process is one server running in a process of its own, so that its CPU
// time and memory are its own. Its methods are for one goroutine at a time.
type Process struct {
	// Name is the server's name (one of Servers()).
	Name string
	// Addr is the loopback host:port it listens on.
	Addr  string
	cmd   *exec.Cmd
	stdin io.WriteCloser
	done  chan error
}

// Start starts cmd, a server process speaking ServeMain's protocol, and
// waits (within ctx) for its "listening" line. The process's stderr is
// passed on to stderr.
func Start(ctx context.Context, name string, cmd *exec.Cmd, stderr io.Writer) (*Process, error) {
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("e2e: starting %s: %w", name, err)
	}
	p := &Process{Name: name, cmd: cmd, stdin: stdin, done: make(chan error, 1)}
	line := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		first := ""
		if sc.Scan() {
			first = sc.Text()
		}
		line <- first
		_, _ = io.Copy(io.Discard, stdout)
		p.done <- cmd.Wait()
	}()
	select {
	case l := <-line:
		addr, ok := strings.CutPrefix(l, "listening ")
		if !ok {
			_ = p.Stop()
			return nil, fmt.Errorf("e2e: %s did not start: first line %q", name, l)
		}
		p.Addr = addr
		return p, nil
	case <-ctx.Done():
		_ = p.Stop()
		return nil, fmt.Errorf("e2e: %s did not start: %w", name, ctx.Err())
	}
}

// Stop closes the process's stdin, which ends it, and waits for it; a
// process still running after 10 s is killed.
func (p *Process) Stop() error {
	_ = p.stdin.Close()
	select {
	case err := <-p.done:
		return err
	case <-time.After(10 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
		return fmt.Errorf("e2e: %s did not stop within 10 s and was killed", p.Name)
	}
}

// CPU returns the process's user plus system CPU time so far.
func (p *Process) CPU() (time.Duration, error) { return processCPU(p.cmd.Process.Pid) }

// RSS returns the process's resident set size now (VmRSS).
func (p *Process) RSS() (int64, error) { return procStatus(p.cmd.Process.Pid, "VmRSS:") }

// PeakRSS returns the largest resident set size the process has had
// (VmHWM).
func (p *Process) PeakRSS() (int64, error) { return procStatus(p.cmd.Process.Pid, "VmHWM:") }

// clockTick is the unit of the times in /proc/PID/stat: USER_HZ, 100 on
// every Linux architecture Go supports.
const clockTick = 10 * time.Millisecond

// processCPU reads utime and stime, fields 14 and 15 of /proc/PID/stat
// (proc(5)). They count every thread of the process, exited ones included.
func processCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	// The command name (field 2) is in parentheses and may hold spaces.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0, errors.New("e2e: unreadable /proc stat")
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, errors.New("e2e: short /proc stat")
	}
	// f[0] is field 3 (state), so utime is f[11] and stime f[12].
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	return time.Duration(utime+stime) * clockTick, nil
}

// procStatus reads a size in kB from /proc/PID/status, in bytes.
func procStatus(pid int, key string) (int64, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, key); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("e2e: no %s in /proc/%d/status", key, pid)
}
