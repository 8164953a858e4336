package ginagui_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/agui-go/agui/ginagui"
)

// Input on a group leaves requests that start no run to their routes:
// every agent's GET …/capabilities still answers 200, and a GET on an
// agent path still gets the route's 405.
func TestInputOnAGroupKeepsCapabilities(t *testing.T) {
	r := gin.New()
	g := r.Group("/agents", ginagui.Input())
	for _, p := range []string{"/a", "/b"} {
		if err := ginagui.Register(g, p, sayAgent("hi")); err != nil {
			t.Fatal(err)
		}
	}
	for path, want := range map[string]int{
		"/agents/a/capabilities": http.StatusOK,
		"/agents/b/capabilities": http.StatusOK,
		"/agents/a":              http.StatusMethodNotAllowed,
	} {
		rec := httptest.NewRecorder()
		r.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != want {
			t.Errorf("GET %s = %d %s, want %d", path, rec.Code, rec.Body.String(), want)
		}
	}
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/agents/a", strings.NewReader(runBody))
	req.Header.Set("Content-Type", "application/json")
	r.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "RUN_FINISHED") {
		t.Errorf("POST = %d %s", rec.Code, rec.Body.String())
	}
}

// Register reports a route it cannot add as an error, never a panic: here
// an app's own GET route on the agent's capabilities path.
func TestRegisterCollisionIsAnError(t *testing.T) {
	r := gin.New()
	r.GET("/agents/a/capabilities", func(c *gin.Context) {})
	err := ginagui.Register(r, "/agents/a", sayAgent("hi"))
	if err == nil {
		t.Fatal("a colliding Register succeeded")
	}
}

// An app's own route on an agent's path keeps working: Register's 405
// courtesy routes never collide with it.
func TestRegisterKeepsTheAppsOwnRoutes(t *testing.T) {
	r := gin.New()
	r.GET("/agents/b", func(c *gin.Context) { c.String(http.StatusTeapot, "mine") })
	if err := ginagui.Register(r, "/agents/b", sayAgent("hi")); err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/agents/b", nil))
	if rec.Code != http.StatusTeapot {
		t.Fatalf("GET = %d", rec.Code)
	}
	rec = httptest.NewRecorder()
	r.ServeHTTP(rec, httptest.NewRequest(http.MethodDelete, "/agents/b", nil))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Fatalf("DELETE = %d", rec.Code)
	}
}
