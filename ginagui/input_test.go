package ginagui_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui"
	"github.com/agui-go/agui/aguitest"
	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
)

func TestInputBeforeAppMiddleware(t *testing.T) {
	t.Parallel()
	var runs atomic.Int64
	agent := core.AgentFunc[core.NoState](func(ctx context.Context, rc *core.RunContext[core.NoState]) (agui.Outcome, error) {
		runs.Add(1)
		return agui.Success(), rc.Say("ok")
	})
	// The app authorizes by thread, which needs the decoded input first.
	ownsThread := func(c *gin.Context) {
		in, ok := ginagui.InputFrom(c)
		if !ok || in.ThreadID != "t" {
			c.AbortWithStatusJSON(http.StatusForbidden, gin.H{"error": "not your thread"})
			return
		}
		c.Next()
	}
	r := gin.New()
	g := r.Group("/", ginagui.Input(), ownsThread)
	if err := ginagui.Register(g, "/agent", agent); err != nil {
		t.Fatal(err)
	}
	srv := serve(t, r)

	resp := postRun(t, srv.URL+"/agent") // thread "t": allowed
	if evs := aguitest.ReadSSE(t, resp.Body); text(evs) != "ok" {
		t.Errorf("allowed thread: text %q", text(evs))
	}
	resp.Body.Close()

	for _, tc := range []struct {
		body   string
		status int
	}{
		{strings.Replace(runBody, `"threadId":"t"`, `"threadId":"other"`, 1), http.StatusForbidden},
		{`{"threadId":`, http.StatusBadRequest},
		{`{"runId":"r","messages":[]}`, http.StatusUnprocessableEntity},
	} {
		resp, err := http.Post(srv.URL+"/agent", "application/json", strings.NewReader(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status {
			t.Errorf("%s: status %d, want %d", tc.body, resp.StatusCode, tc.status)
		}
	}
	if n := runs.Load(); n != 1 {
		t.Errorf("the agent ran %d times, want once", n)
	}
}
