package ginagui_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
	"github.com/agui-go/agui/resume"
)

func TestRegisterResumable(t *testing.T) {
	lg, err := resume.NewMemoryLog()
	if err != nil {
		t.Fatal(err)
	}
	r := gin.New()
	// Authentication on the group guards rejoins and stops as well.
	private := r.Group("/private", func(c *gin.Context) {
		if c.GetHeader("X-User") == "" {
			c.AbortWithStatus(http.StatusUnauthorized)
			return
		}
		c.Next()
	})
	owner := core.WithPrincipal(func(r *http.Request) (string, error) { return r.Header.Get("X-User"), nil })
	rh := newResumable(t, sayAgent("hello"), lg, owner)
	if err := ginagui.RegisterResumable(private, "/chat", rh); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := rh.Close(context.Background()); err != nil {
			t.Error(err)
		}
	})
	srv := serve(t, r)

	do := func(method, path, body, user, cursor string) *http.Response {
		t.Helper()
		req, err := http.NewRequestWithContext(context.Background(), method, srv.URL+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		if user != "" {
			req.Header.Set("X-User", user)
		}
		if cursor != "" {
			req.Header.Set("Last-Event-ID", cursor)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	resp := do(http.MethodPost, "/private/chat", runBody, "alice", "")
	evs := aguitest.ReadSSE(t, resp.Body)
	resp.Body.Close()
	if loc := resp.Header.Get("Content-Location"); loc != "/private/chat/runs/r" || len(evs) != 5 {
		t.Fatalf("run: %q, %d events", loc, len(evs))
	}

	resp = do(http.MethodGet, "/private/chat/runs/r", "", "alice", "3")
	fs := aguitest.ReadFrames(t, resp.Body, 0)
	resp.Body.Close()
	if len(fs) != 2 || fs[0].ID != 4 || fs[1].ID != 5 {
		t.Fatalf("rejoin after 3: %+v, want the events with ids 4 and 5", fs)
	}
	for _, c := range []struct {
		method, path, user string
		status             int
	}{
		{http.MethodGet, "/private/chat/runs/r", "", http.StatusUnauthorized},
		{http.MethodGet, "/private/chat/runs/r", "bob", http.StatusForbidden},
		{http.MethodDelete, "/private/chat/runs/r", "bob", http.StatusForbidden},
		{http.MethodDelete, "/private/chat/runs/r", "alice", http.StatusAccepted},
		{http.MethodGet, "/private/chat/threads/t/run", "alice", http.StatusNoContent},
		{http.MethodGet, "/private/chat", "alice", http.StatusMethodNotAllowed},
	} {
		resp := do(c.method, c.path, "", c.user, "")
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Errorf("%s %s as %q: %d, want %d", c.method, c.path, c.user, resp.StatusCode, c.status)
		}
	}
	resp = do(http.MethodGet, "/private/chat/capabilities", "", "alice", "")
	var caps agui.Capabilities
	err = json.NewDecoder(resp.Body).Decode(&caps)
	resp.Body.Close()
	if err != nil || caps.Transport == nil || caps.Transport.Resumable == nil || !*caps.Transport.Resumable {
		t.Errorf("capabilities %+v (%v) do not declare resumable", caps.Transport, err)
	}
}

// A run id with bytes a path must escape ("/" included) is rejoined and
// stopped at the URL its Content-Location advertises, whether the engine
// routes on the unescaped path (Gin's default) or on the raw one.
func TestRegisterResumableRunIDWithSlash(t *testing.T) {
	for _, raw := range []bool{false, true} {
		lg, err := resume.NewMemoryLog()
		if err != nil {
			t.Fatal(err)
		}
		r := gin.New()
		r.UseRawPath = raw
		rh := newResumable(t, sayAgent("hello"), lg)
		if err := ginagui.RegisterResumable(r, "/chat", rh); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if err := rh.Close(context.Background()); err != nil {
				t.Error(err)
			}
		})
		srv := serve(t, r)
		do := func(method, path, body string) (*http.Response, string) {
			t.Helper()
			req, err := http.NewRequestWithContext(context.Background(), method, srv.URL+path, strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Last-Event-ID", "1")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			return resp, string(b)
		}
		post, err := http.Post(srv.URL+"/chat", "application/json",
			strings.NewReader(`{"threadId":"t","runId":"a/b c%","protocolVersion":"1.0","messages":[]}`))
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, post.Body)
		post.Body.Close()
		loc := post.Header.Get("Content-Location")
		if loc != "/chat/runs/a%2Fb%20c%25" {
			t.Fatalf("raw path %v: Content-Location %q", raw, loc)
		}
		resp, body := do(http.MethodGet, loc, "")
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, "id: 2\n") || resp.Header.Get("Content-Location") != loc {
			t.Fatalf("raw path %v: rejoin at %s: %d %q", raw, loc, resp.StatusCode, body)
		}
		resp, body = do(http.MethodDelete, loc, "")
		if resp.StatusCode != http.StatusAccepted || !strings.Contains(body, `"runId":"a/b c%"`) {
			t.Fatalf("raw path %v: stop at %s: %d %s", raw, loc, resp.StatusCode, body)
		}
	}
}

// newResumable returns a resumable handler of a, with handler options
// opts, on lg.
func newResumable(t *testing.T, a core.Agent[core.NoState], lg resume.Log, opts ...core.HandlerOption) *resume.Handler[core.NoState] {
	t.Helper()
	h, err := core.NewHandler(a, opts...)
	if err != nil {
		t.Fatal(err)
	}
	rh, err := resume.New(h, lg)
	if err != nil {
		t.Fatal(err)
	}
	return rh
}

// RegisterResumable reports a route it cannot add as an error, never a
// panic, as Register does: here the app's own GET route on the rejoin
// path, and a resumable route registered twice.
func TestRegisterResumableCollisionIsAnError(t *testing.T) {
	lg, err := resume.NewMemoryLog()
	if err != nil {
		t.Fatal(err)
	}
	rh := newResumable(t, sayAgent("hi"), lg)
	t.Cleanup(func() {
		if err := rh.Close(context.Background()); err != nil {
			t.Error(err)
		}
	})
	r := gin.New()
	r.GET("/a/runs/:id", func(c *gin.Context) {})
	if err := ginagui.RegisterResumable(r, "/a", rh); err == nil {
		t.Error("a RegisterResumable colliding with the app's route succeeded")
	}
	r = gin.New()
	if err := ginagui.RegisterResumable(r, "/b", rh); err != nil {
		t.Fatal(err)
	}
	if err := ginagui.RegisterResumable(r, "/b", rh); err == nil {
		t.Error("a second RegisterResumable on the same path succeeded")
	}
	if err := ginagui.RegisterResumable[core.NoState](r, "/c", nil); err == nil {
		t.Error("RegisterResumable without a handler succeeded")
	}
}
