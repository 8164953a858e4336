package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strconv"
	"sync"
	"time"
)

// IdleResult is what Idle measured. Values are immutable.
type IdleResult struct {
	Streams  int
	Failures int
	// Before and Open are the server's resident set size before the
	// streams and while all of them are open.
	Before, Open int64
}

// PerStream is the growth of the server's resident memory per open stream.
func (r IdleResult) PerStream() int64 {
	if r.Streams == 0 {
		return 0
	}
	return (r.Open - r.Before) / int64(r.Streams)
}

// Idle opens n streams of p's PathIdle route, each held open after its
// first event, samples the server's RSS while all are open, and then hangs
// them all up. At most 64 connections are being set up at once; ctx and a
// 60 s limit bound the whole measurement.
func Idle(ctx context.Context, p *Process, n int) (IdleResult, error) {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	u := "http://" + p.Addr + PathIdle
	if err := checkLoopback(u); err != nil {
		return IdleResult{}, err
	}
	before, err := p.RSS()
	if err != nil {
		return IdleResult{}, err
	}
	res := IdleResult{Streams: n, Before: before}
	conns := make([]net.Conn, n)
	failed := make([]bool, n)
	slots := make(chan struct{}, 64)
	var wg sync.WaitGroup
	for i := range n {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			failed[i] = true
			continue
		}
		wg.Go(func() {
			defer func() { <-slots }()
			c, err := openIdle(ctx, p.Addr, requestBody(nil, "idle-"+strconv.Itoa(i), nil))
			conns[i], failed[i] = c, err != nil
		})
	}
	wg.Wait()
	res.Open, err = p.RSS()
	for i, c := range conns {
		if c != nil {
			_ = c.Close()
		}
		if failed[i] {
			res.Failures++
		}
	}
	if err != nil {
		return res, err
	}
	return res, ctx.Err()
}

// openIdle posts body to addr's PathIdle over a new connection and reads
// until the first event; it returns the connection, held open.
func openIdle(ctx context.Context, addr string, body []byte) (net.Conn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	stop := context.AfterFunc(ctx, func() { _ = c.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	req := fmt.Appendf(nil, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\nContent-Length: %d\r\n\r\n%s",
		PathIdle, addr, len(body), body)
	if _, err := c.Write(req); err != nil {
		c.Close()
		return nil, err
	}
	var got []byte
	buf := make([]byte, 1024)
	for !bytes.Contains(got, []byte("data: ")) {
		n, err := c.Read(buf)
		got = append(got, buf[:n]...)
		if err != nil {
			c.Close()
			return nil, err
		}
		if len(got) > 64<<10 {
			c.Close()
			return nil, fmt.Errorf("no event in the first %d bytes", len(got))
		}
	}
	if !bytes.HasPrefix(got, []byte("HTTP/1.1 200")) {
		c.Close()
		line, _, _ := bytes.Cut(got, []byte("\r\n"))
		return nil, fmt.Errorf("status %q", line)
	}
	return c, nil
}

// checkLoopback refuses a URL whose host is not this machine.
func checkLoopback(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "http" {
		return fmt.Errorf("e2e: %q is not an http URL", raw)
	}
	if h := u.Hostname(); h != "localhost" {
		if ip := net.ParseIP(h); ip == nil || !ip.IsLoopback() {
			return fmt.Errorf("e2e: %q is not on this machine: only loopback addresses are loaded", raw)
		}
	}
	return nil
}

// NamedIdle is an IdleResult with the server it is of.
type NamedIdle struct {
	Server string
	IdleResult
}

// IdleServer starts a fresh process of the named server, measures n idle
// streams against it with Idle, and stops it.
func IdleServer(ctx context.Context, launch Launcher, name string, n int, stderr io.Writer) (res IdleResult, err error) {
	p, err := startNamed(ctx, launch, name, stderr)
	if err != nil {
		return IdleResult{}, err
	}
	defer func() { err = errors.Join(err, p.Stop()) }()
	return Idle(ctx, p, n)
}

// startNamed launches the named server and waits up to 30 s for it.
func startNamed(ctx context.Context, launch Launcher, name string, stderr io.Writer) (*Process, error) {
	cmd, err := launch(name)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	return Start(ctx, name, cmd, stderr)
}
