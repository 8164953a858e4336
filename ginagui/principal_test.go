package ginagui_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui/core"
	"github.com/agui-go/agui/ginagui"
	"github.com/agui-go/agui/resume"
)

// TestPrincipalHookOnEveryRoute: the route's principal hook guards the
// run, the capabilities route, the resumable route's rejoin, stop and
// active-run lookup, and Input: a failing hook is a JSON 401
// UNAUTHENTICATED on each.
func TestPrincipalHookOnEveryRoute(t *testing.T) {
	lg, err := resume.NewMemoryLog()
	if err != nil {
		t.Fatal(err)
	}
	refuse := core.WithPrincipal(func(*http.Request) (string, error) { return "", errors.New("unknown") })
	r := gin.New()
	if err := ginagui.Register(r.Group("", ginagui.Input(refuse)), "/plain", sayAgent("hi"), refuse); err != nil {
		t.Fatal(err)
	}
	rh := newResumable(t, sayAgent("hi"), lg, refuse)
	if err := ginagui.RegisterResumable(r, "/chat", rh); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := rh.Close(context.Background()); err != nil {
			t.Error(err)
		}
	})
	srv := serve(t, r)
	for _, c := range []struct{ method, path string }{
		{http.MethodPost, "/plain"},
		{http.MethodGet, "/plain/capabilities"},
		{http.MethodPost, "/chat"},
		{http.MethodGet, "/chat/capabilities"},
		{http.MethodGet, "/chat/runs/r"},
		{http.MethodDelete, "/chat/runs/r"},
		{http.MethodGet, "/chat/threads/t/run"},
	} {
		req, err := http.NewRequestWithContext(context.Background(), c.method, srv.URL+c.path, strings.NewReader(runBody))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(string(body), `"code":"UNAUTHENTICATED"`) {
			t.Errorf("%s %s: %d %s", c.method, c.path, resp.StatusCode, body)
		}
	}
}
