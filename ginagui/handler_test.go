package ginagui_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
)

func TestHandlerStreamsThroughGin(t *testing.T) {
	t.Parallel()
	r := gin.New()
	var seen *agui.RunAgentInput
	r.Use(func(c *gin.Context) {
		c.Next()
		seen, _ = ginagui.InputFrom(c) // the app's middleware, after the run
	})
	r.POST("/agent", ginagui.Handler(sayAgent("hello")), func(c *gin.Context) {
		c.String(http.StatusOK, "must not be written into the stream")
	})
	srv := serve(t, r)
	resp := postRun(t, srv.URL+"/agent")
	defer resp.Body.Close()
	if got := resp.Header.Get("Content-Type"); got != "text/event-stream" {
		t.Errorf("Content-Type = %q", got)
	}
	if got := resp.Header.Get("X-Accel-Buffering"); got != "no" {
		t.Errorf("X-Accel-Buffering = %q", got)
	}
	evs := aguitest.ReadSSE(t, resp.Body)
	if len(evs) != 5 || text(evs) != "hello" || evs[4].Type() != agui.TypeRunFinished {
		t.Errorf("stream = %d events, text %q", len(evs), text(evs))
	}
	srv.Close()
	if seen == nil || seen.RunID != "r" {
		t.Errorf("middleware saw input %+v, want run r", seen)
	}
}

func TestHandlerRefusesThroughGin(t *testing.T) {
	t.Parallel()
	r := gin.New()
	r.POST("/agent", ginagui.Handler(sayAgent("x")))
	srv := serve(t, r)
	resp, err := http.Post(srv.URL+"/agent", "text/plain", strings.NewReader(runBody))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnsupportedMediaType || !strings.Contains(string(body), string(core.CodeUnsupportedMediaType)) {
		t.Errorf("got %d %s, want 415", resp.StatusCode, body)
	}
}

func TestHandlerMisconfigured(t *testing.T) {
	t.Parallel()
	r := gin.New()
	r.POST("/agent", ginagui.Handler(sayAgent("x"), core.WithMaxBodyBytes(-1)))
	srv := serve(t, r)
	resp := postRun(t, srv.URL+"/agent")
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusInternalServerError || !strings.Contains(string(body), `"code":"`+string(ginagui.CodeMisconfigured)+`"`) {
		t.Errorf("got %d %s, want 500 MISCONFIGURED", resp.StatusCode, body)
	}
}

// TestHandlerOutlivesWriteTimeoutThroughGin streams five times longer than
// the server's WriteTimeout: gin's writer exposes Unwrap, so the per-write
// deadline reaches the connection. It runs in real time: the deadline
// lives on a real socket, which testing/synctest cannot fake (network I/O
// is not durably blocking inside a bubble).
func TestHandlerOutlivesWriteTimeoutThroughGin(t *testing.T) {
	t.Parallel()
	const writeTimeout = 100 * time.Millisecond
	agent := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		m, err := rc.Message()
		if err != nil {
			return agui.Outcome{}, err
		}
		tick := time.NewTicker(writeTimeout / 10)
		defer tick.Stop()
		end := time.Now().Add(5 * writeTimeout)
		for now := range tick.C {
			if now.After(end) {
				break
			}
			if err := m.Delta("."); err != nil {
				return agui.Outcome{}, err
			}
		}
		return agui.Success(), m.End()
	})
	r := gin.New()
	r.POST("/agent", ginagui.Handler(agent, core.WithWriteTimeout(time.Second)))
	srv := httptest.NewUnstartedServer(r)
	srv.Config.WriteTimeout = writeTimeout
	srv.Start()
	t.Cleanup(func() {
		srv.Close()
		http.DefaultClient.CloseIdleConnections()
	})
	resp := postRun(t, srv.URL+"/agent")
	defer resp.Body.Close()
	evs := aguitest.ReadSSE(t, resp.Body)
	if len(evs) == 0 || evs[len(evs)-1].Type() != agui.TypeRunFinished {
		t.Fatalf("stream cut by the server's WriteTimeout after %d events", len(evs))
	}
}
