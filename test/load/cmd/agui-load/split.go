package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/agui-go/agui/test/load"
)

// serveFlag makes the binary the server half of a split run (see -split):
// it serves load.Serve on a loopback port, writes "listening HOST:PORT" on
// stdout, and stops when stdin reaches its end.
const serveFlag = "-serve-ticker"

// serveTicker is the body of the server process; args[0] is the interval.
func serveTicker(args []string) int {
	interval := 100 * time.Millisecond
	if len(args) > 0 {
		d, err := time.ParseDuration(args[0])
		if err != nil {
			fmt.Fprintln(os.Stderr, "agui-load:", err)
			return 2
		}
		interval = d
	}
	if err := raiseFileLimit(); err != nil {
		fmt.Fprintln(os.Stderr, "agui-load: raising the open file limit:", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "agui-load:", err)
		return 1
	}
	fmt.Printf("listening %s\n", ln.Addr())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = io.Copy(io.Discard, os.Stdin)
		cancel()
	}()
	err = load.Serve(ctx, ln, interval)
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "agui-load:", err)
		return 1
	}
	<-done
	return 0
}

// child is a server process started by startChild.
type child struct {
	url   string
	pid   int
	stdin io.Closer
	cmd   *exec.Cmd
}

// startChild starts this binary as the server half of a split run and
// waits up to 30 s for its address.
func startChild(interval time.Duration) (*child, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe, serveFlag, interval.String())
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := &child{pid: cmd.Process.Pid, stdin: stdin, cmd: cmd}
	line := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Scan()
		line <- sc.Text()
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case l := <-line:
		addr, ok := strings.CutPrefix(l, "listening ")
		if !ok {
			c.stop()
			return nil, fmt.Errorf("the server process said %q", l)
		}
		c.url = "http://" + addr + load.TickerPath
		return c, nil
	case <-time.After(30 * time.Second):
		c.stop()
		return nil, errors.New("the server process did not start within 30 s")
	}
}

// stop ends the server process (closing its stdin) and waits for it; one
// still running after 10 s is killed.
func (c *child) stop() error {
	_ = c.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		_ = c.cmd.Process.Kill()
		return <-done
	}
}
