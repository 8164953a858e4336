package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// ServerNodeHTTP2 is the Node server on node:http2 (cleartext HTTP/2, the
// same routes); IdleServerHTTP2 uses it in place of ServerNode.
const ServerNodeHTTP2 = "node-h2"

// IdleHTTP2 is Idle over cleartext HTTP/2 with prior knowledge: the n
// streams share connections (as many streams on each as the server's
// SETTINGS_MAX_CONCURRENT_STREAMS allows: 250 on Go's server, unbounded on
// Node's), each held open after its first event while the server's RSS is
// sampled. At most 64 requests are being set up at once; ctx and a 60 s
// limit bound the whole measurement.
func IdleHTTP2(ctx context.Context, p *Process, n int) (IdleResult, error) {
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
	var protos http.Protocols
	protos.SetUnencryptedHTTP2(true)
	tr := &http.Transport{Protocols: &protos, DisableCompression: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}

	res := IdleResult{Streams: n, Before: before}
	bodies := make([]io.ReadCloser, n)
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
			b, err := openIdleHTTP2(ctx, client, u, requestBody(nil, "idle-"+strconv.Itoa(i), nil))
			bodies[i], failed[i] = b, err != nil
		})
	}
	wg.Wait()
	res.Open, err = p.RSS()
	for i, b := range bodies {
		if b != nil {
			_ = b.Close()
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

// openIdleHTTP2 posts body to u over HTTP/2 and reads until the first
// event; it returns the response's body, held open.
func openIdleHTTP2(ctx context.Context, client *http.Client, u string, body []byte) (io.ReadCloser, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK || resp.ProtoMajor != 2 {
		resp.Body.Close()
		return nil, fmt.Errorf("status %d over %s", resp.StatusCode, resp.Proto)
	}
	var got []byte
	buf := make([]byte, 1024)
	for !bytes.Contains(got, []byte("data: ")) {
		n, err := resp.Body.Read(buf)
		got = append(got, buf[:n]...)
		if err != nil {
			resp.Body.Close()
			return nil, err
		}
		if len(got) > 64<<10 {
			resp.Body.Close()
			return nil, fmt.Errorf("no event in the first %d bytes", len(got))
		}
	}
	return resp.Body, nil
}

// IdleServerHTTP2 is IdleServer over HTTP/2: the Go servers serve it on
// their one port; for ServerNode it starts ServerNodeHTTP2.
func IdleServerHTTP2(ctx context.Context, launch Launcher, name string, n int, stderr io.Writer) (res IdleResult, err error) {
	if name == ServerNode {
		name = ServerNodeHTTP2
	}
	p, err := startNamed(ctx, launch, name, stderr)
	if err != nil {
		return IdleResult{}, err
	}
	defer func() { err = errors.Join(err, p.Stop()) }()
	return IdleHTTP2(ctx, p, n)
}
