package main

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
	"github.com/agui-go/agui/resume"
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

// A shutdown ends the streams of the resumable route /agents/detached,
// the run's first stream and a follower that rejoined it, each with a
// terminal RUN_ERROR (CANCELLED), and serve and the routes' Close both
// return nil: the process exits 0.
func TestServeEndsDetachedStreams(t *testing.T) {
	cfg := defaultConfig(slog.New(slog.DiscardHandler))
	cfg.slowInterval, cfg.slowTotal = time.Millisecond, time.Hour
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
	go func() {
		served <- serve(ln, newServer(r), cfg.gate, sigs, 5*time.Second, slog.New(slog.DiscardHandler))
	}()
	url := "http://" + ln.Addr().String()

	first := request(t, context.Background(), http.MethodPost, url+"/agents/detached", input("go", ""))
	defer first.Body.Close()
	got := aguitest.ReadFrames(t, first.Body, 2)
	follower := request(t, context.Background(), http.MethodGet, url+first.Header.Get("Content-Location"), "",
		"Last-Event-ID", strconv.FormatUint(got[len(got)-1].ID, 10))
	defer follower.Body.Close()
	if follower.StatusCode != http.StatusOK {
		t.Fatalf("rejoin: %d", follower.StatusCode)
	}
	aguitest.ReadFrames(t, follower.Body, 1)
	sigs <- syscall.SIGTERM
	if err := <-served; err != nil {
		t.Fatalf("serve = %v, want nil", err)
	}
	for name, body := range map[string]io.Reader{"first stream": first.Body, "follower": follower.Body} {
		rest := aguitest.ReadFrames(t, body, 0)
		if len(rest) == 0 || !strings.Contains(rest[len(rest)-1].Data, `"RUN_ERROR"`) || !strings.Contains(rest[len(rest)-1].Data, `"CANCELLED"`) {
			t.Errorf("%s ends with %v, want RUN_ERROR CANCELLED", name, rest)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := cfg.resumables.Close(ctx); err != nil {
		t.Fatalf("Close = %v, want nil", err)
	}
	http.DefaultClient.CloseIdleConnections()
}

// With two replicas on one log, the replica that shuts down ends its
// follower of a run the other one runs with a terminal RUN_ERROR
// (CANCELLED), and serve returns nil; the run goes on on the other.
func TestServeEndsFollowersOfAnotherReplicasRun(t *testing.T) {
	lg, err := resume.NewMemoryLog()
	if err != nil {
		t.Fatal(err)
	}
	replica := func() (config, string, chan os.Signal, chan error) {
		cfg := defaultConfig(slog.New(slog.DiscardHandler))
		cfg.slowInterval, cfg.slowTotal = time.Millisecond, time.Hour
		cfg.runLog = func(string) (resume.Log, error) { return lg, nil }
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
		go func() {
			served <- serve(ln, newServer(r), cfg.gate, sigs, 3*time.Second, slog.New(slog.DiscardHandler))
		}()
		return cfg, "http://" + ln.Addr().String(), sigs, served
	}
	cfgA, a, sigsA, servedA := replica()
	cfgB, b, sigsB, servedB := replica()

	first := request(t, context.Background(), http.MethodPost, a+"/agents/detached", input("go", ""))
	defer first.Body.Close()
	got := aguitest.ReadFrames(t, first.Body, 2)
	follower := request(t, context.Background(), http.MethodGet, b+first.Header.Get("Content-Location"), "",
		"Last-Event-ID", strconv.FormatUint(got[len(got)-1].ID, 10))
	defer follower.Body.Close()
	if follower.StatusCode != http.StatusOK {
		t.Fatalf("rejoin on b: %d", follower.StatusCode)
	}
	aguitest.ReadFrames(t, follower.Body, 1)
	sigsB <- syscall.SIGTERM
	if err := <-servedB; err != nil {
		t.Fatalf("serve on b = %v, want nil", err)
	}
	if rest := aguitest.ReadFrames(t, follower.Body, 0); len(rest) == 0 || !strings.Contains(rest[len(rest)-1].Data, `"CANCELLED"`) {
		t.Fatalf("b's follower ends with %v, want RUN_ERROR CANCELLED", rest)
	}
	if more := aguitest.ReadFrames(t, first.Body, 3); len(more) != 3 {
		t.Fatalf("the run on a after b shut down: %v", more)
	}
	sigsA <- syscall.SIGTERM
	if err := <-servedA; err != nil {
		t.Fatalf("serve on a = %v, want nil", err)
	}
	for _, cfg := range []config{cfgA, cfgB} {
		ctx, cancel := context.WithTimeout(context.Background(), core.ForceGrace)
		if err := cfg.resumables.Close(ctx); err != nil {
			t.Errorf("Close = %v", err)
		}
		cancel()
	}
	http.DefaultClient.CloseIdleConnections()
}

// A request whose body is stalled when the signal comes does not hold the
// shutdown: its read is cut, the client gets 503, and serve returns nil
// well inside a grace shorter than the read timeout (before, the read
// waited for its 30 s timeout, the grace ran out and serve failed). The
// same holds when middleware refuses before the body is read (the private
// echo without credentials, the users' route with a stranger's token):
// net/http would drain the unread body after the handler, and the stalled
// client held that drain past the grace.
func TestServeStalledUploadDoesNotFailShutdown(t *testing.T) {
	for _, tc := range []struct {
		name, path, auth, status string
	}{
		// The agent route reads the body: the gate's Shutdown cuts the read.
		{"reading", "/agents/echo", "", "HTTP/1.1 503"},
		// Middleware refuses before the body is read: net/http would drain
		// the unread body after the handler, held by the stalled client.
		{"bearer refusal", "/agents/private/echo", "", "HTTP/1.1 401"},
		{"users refusal", "/agents/users/detached", "Authorization: Bearer mallory-token\r\n", "HTTP/1.1 401"},
	} {
		t.Run(tc.name, func(t *testing.T) {
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
			// The signal comes once the request is in a handler. Earlier,
			// net/http itself drops a request whose headers it read while
			// Shutdown began (the connection closes unanswered, and the
			// client may retry what no handler saw), so the test waits past
			// that point; StateActive comes before it.
			entered := make(chan struct{})
			var once sync.Once
			srv.Handler = http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
				once.Do(func() { close(entered) })
				r.ServeHTTP(w, req)
			})
			go func() { served <- serve(ln, srv, cfg.gate, sigs, 2*time.Second, slog.New(slog.DiscardHandler)) }()

			conn, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if _, err := conn.Write([]byte("POST " + tc.path + " HTTP/1.1\r\nHost: x\r\n" + tc.auth + "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"threadId\":")); err != nil {
				t.Fatal(err)
			}
			<-entered
			sigs <- syscall.SIGTERM
			status, err := bufio.NewReader(conn).ReadString('\n')
			if err != nil || !strings.HasPrefix(status, tc.status) {
				t.Fatalf("stalled client got %q, %v; want %s", status, err, tc.status)
			}
			if err := <-served; err != nil {
				t.Fatalf("serve = %v, want nil", err)
			}
		})
	}
}
