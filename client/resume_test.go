package client_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/client"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/resume"
)

// serveResumable serves agent on a resumable route at /chat with detach,
// so a run outlives a dropped connection.
func serveResumable(t *testing.T, agent core.Agent[core.NoState]) string {
	t.Helper()
	h, err := core.NewHandler(agent, quiet)
	if err != nil {
		t.Fatal(err)
	}
	lg, err := resume.NewMemoryLog()
	if err != nil {
		t.Fatal(err)
	}
	rh, err := resume.New(h, lg, resume.WithDetach(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("POST /chat", rh)
	mux.Handle("GET /chat/runs/{runId}", rh)
	mux.Handle("DELETE /chat/runs/{runId}", rh)
	srv := httptest.NewServer(mux)
	t.Cleanup(func() {
		srv.Close()
		if err := rh.Close(context.Background()); err != nil {
			t.Error(err)
		}
		lg.Close()
	})
	return srv.URL + "/chat"
}

// cutter is a transport whose first response body breaks after n bytes,
// as a dropped connection does.
type cutter struct {
	n       int
	mu      sync.Mutex
	cut     bool
	methods []string
	lastIDs []string
}

func (c *cutter) RoundTrip(req *http.Request) (*http.Response, error) {
	c.mu.Lock()
	c.methods = append(c.methods, req.Method)
	c.lastIDs = append(c.lastIDs, req.Header.Get("Last-Event-ID"))
	first := !c.cut
	c.cut = true
	c.mu.Unlock()
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err == nil && first {
		resp.Body = &brokenBody{ReadCloser: resp.Body, left: c.n}
	}
	return resp, err
}

type brokenBody struct {
	io.ReadCloser
	left int
}

var errCut = errors.New("connection cut")

func (b *brokenBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, errCut
	}
	if len(p) > b.left {
		p = p[:b.left]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= n
	return n, err
}

// A run on a resumable route whose connection drops mid-stream is
// rejoined with Last-Event-ID and reduces to what the undisturbed run
// gives: no event missing, none repeated.
func TestRunRejoinsAResumableRun(t *testing.T) {
	agent := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		for _, s := range []string{"one", "two", "three"} {
			if err := rc.Say(s); err != nil {
				return agui.Outcome{}, err
			}
		}
		return agui.Success(), nil
	})
	url := serveResumable(t, agent)
	want, err := mustAgent(t, url).Run(t.Context(), agui.NewInput("t1", "r-whole"))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 40, 150, 300} {
		tr := &cutter{n: n}
		var warned []client.Warning
		a, err := client.New(url, client.WithHTTPClient(&http.Client{Transport: tr}),
			client.WithReconnects(5, time.Millisecond),
			client.WithWarnings(func(w client.Warning) { warned = append(warned, w) }))
		if err != nil {
			t.Fatal(err)
		}
		got, err := a.Run(t.Context(), agui.NewInput("t1", "r-cut-"+strings.Repeat("x", n%7)+string(rune('a'+n%26))))
		if err != nil {
			t.Fatalf("cut after %d bytes: %v", n, err)
		}
		if g, w := transcript(got), transcript(want); g != w {
			t.Errorf("cut after %d bytes: %q, want %q", n, g, w)
		}
		tr.mu.Lock()
		if len(tr.methods) < 2 || tr.methods[0] != http.MethodPost || tr.methods[1] != http.MethodGet {
			t.Errorf("cut after %d bytes: requests %v, want a POST then a GET", n, tr.methods)
		}
		if n >= 150 && (len(tr.lastIDs) < 2 || tr.lastIDs[1] == "") {
			t.Errorf("cut after %d bytes: rejoined with Last-Event-IDs %q, want the last id seen", n, tr.lastIDs)
		}
		tr.mu.Unlock()
		if len(warned) == 0 {
			t.Errorf("cut after %d bytes: no warning about the rejoin", n)
		}
	}
}

func mustAgent(t *testing.T, url string, opts ...client.Option) *client.Agent {
	t.Helper()
	a, err := client.New(url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// transcript is the messages' roles and texts, one a line.
func transcript(v *client.View) string {
	var b strings.Builder
	for _, m := range v.Messages {
		b.WriteString(string(m.Role()) + ":" + text(m) + "\n")
	}
	return b.String()
}

// Without a run URL (a plain route) a drop is an error, never a second
// POST, which would start a second run.
func TestRunDoesNotRetryAPlainRoute(t *testing.T) {
	tr := &cutter{n: 40}
	a := mustAgent(t, serve(t, hello), client.WithHTTPClient(&http.Client{Transport: tr}), client.WithReconnects(5, time.Millisecond))
	_, err := a.Run(t.Context(), agui.NewInput("t1", "r1"))
	if !agui.IsDisconnected(err) || !errors.Is(err, errCut) {
		t.Fatalf("error %v, want DISCONNECTED wrapping the cut", err)
	}
	if len(tr.methods) != 1 {
		t.Errorf("requests %v, want the one POST", tr.methods)
	}
}

// Cancelling the context stops a resumable run, whose route would
// otherwise keep it going for its grace period: the client DELETEs it.
func TestCancelStopsAResumableRun(t *testing.T) {
	stopped := make(chan struct{})
	url := serveResumable(t, core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		if err := rc.Say("working"); err != nil {
			return agui.Outcome{}, err
		}
		<-ctx.Done()
		close(stopped)
		return agui.Outcome{}, ctx.Err()
	}))
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var got error
	for ev, err := range mustAgent(t, url).Events(ctx, agui.NewInput("t1", "r-stop"), nil) {
		if err != nil {
			got = err
			break
		}
		if ev.Type() == agui.TypeTextMessageEnd {
			cancel()
		}
	}
	if !agui.IsCancelled(got) {
		t.Fatalf("error %v, want CANCELLED", got)
	}
	<-stopped // the detached run was stopped, not left for its grace period
}
