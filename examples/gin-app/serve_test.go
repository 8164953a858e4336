package main

import (
	"bufio"
	"context"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
)

// The first signal starts a graceful shutdown; a second one ends every
// stream at once (each still gets its RUN_ERROR CANCELLED), and serve
// returns nil because every stream got its terminal event, even though
// the agent ignores its context and the shutdown deadline is far off.
func TestServeSecondSignalEndsEveryStreamAtOnce(t *testing.T) {
	gate := new(core.Gate)
	running := make(chan struct{})
	release := make(chan struct{})
	defer close(release)
	stubborn := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		if err := rc.Say("working"); err != nil {
			return agui.Outcome{}, err
		}
		close(running)
		<-release // ignores ctx
		return agui.Success(), nil
	})
	r := gin.New()
	if err := ginagui.Register(r, "/agent", stubborn, core.WithGate(gate)); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sigs := make(chan os.Signal, 2)
	served := make(chan error, 1)
	go func() { served <- serve(ln, newServer(r), gate, sigs, time.Hour, slog.New(slog.DiscardHandler)) }()

	req, _ := http.NewRequest(http.MethodPost, "http://"+ln.Addr().String()+"/agent", strings.NewReader(`{"threadId":"t","runId":"r","messages":[]}`))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	<-running
	sigs <- syscall.SIGTERM
	sigs <- syscall.SIGINT
	if err := <-served; err != nil {
		t.Fatalf("serve = %v, want nil", err)
	}
	var lastData string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			lastData = d
		}
	}
	if !strings.Contains(lastData, `"RUN_ERROR"`) || !strings.Contains(lastData, `"CANCELLED"`) {
		t.Fatalf("last event %s, want RUN_ERROR CANCELLED", lastData)
	}
	http.DefaultClient.CloseIdleConnections()
}

// The example's server bounds every phase of a connection.
func TestNewServerTimeouts(t *testing.T) {
	srv := newServer(gin.New())
	if srv.ReadHeaderTimeout <= 0 || srv.IdleTimeout <= 0 {
		t.Fatalf("ReadHeaderTimeout %v IdleTimeout %v", srv.ReadHeaderTimeout, srv.IdleTimeout)
	}
}

// A request whose body is stalled when the signal comes does not hold the
// shutdown: its read is cut, the client gets 503, and serve returns nil
// well inside a grace shorter than the read timeout (before, the read
// waited for its 30 s timeout, the grace ran out and serve failed).
func TestServeStalledUploadDoesNotFailShutdown(t *testing.T) {
	cfg := defaultConfig(slog.New(slog.DiscardHandler))
	r, err := newRouter(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sigs := make(chan os.Signal, 2)
	served := make(chan error, 1)
	srv := newServer(r)
	// The connection turns active once the server has read the request's
	// first bytes: from then on Shutdown waits for it rather than closing it.
	active := make(chan struct{})
	var once sync.Once
	srv.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateActive {
			once.Do(func() { close(active) })
		}
	}
	go func() { served <- serve(ln, srv, cfg.gate, sigs, 2*time.Second, slog.New(slog.DiscardHandler)) }()

	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Write([]byte("POST /agents/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"threadId\":")); err != nil {
		t.Fatal(err)
	}
	<-active
	sigs <- syscall.SIGTERM
	status, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil || !strings.HasPrefix(status, "HTTP/1.1 503") {
		t.Fatalf("stalled client got %q, %v; want 503", status, err)
	}
	if err := <-served; err != nil {
		t.Fatalf("serve = %v, want nil", err)
	}
}
